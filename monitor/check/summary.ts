/** The human summary `check-config` prints: targets, keys by alias, probe counts, projected series. No secrets. */
import { ENDPOINT_IDS } from '../../api/contract/index.js';
import { INDEX_ACCESS, PLATFORM_PATHS } from '../../api/contract/readings.js';
import { projectedSeries } from '../metrics/projection.js';
import { type ProbeSpec, buildPlan } from '../probe/plan.js';
import { isKeyRead } from '../probe/spec.js';
import { formatDuration } from '../config/duration.js';
import type { MonitorConfig, MonitorKey, MonitorTarget } from '../config/types.js';

const percent = (ratio: number): string => `${Math.round(ratio * 100_000) / 1000}%`;

/** When a failing read is probed again: between ticks, or at the next one. */
function recheckText(target: MonitorTarget): string {
  if (target.failureThreshold === 1) return 'down at the first';
  return target.recheckAfterMs > 0 ? `rechecked ${formatDuration(target.recheckAfterMs)} after a failure` : 'rechecked at the next tick';
}

function availabilityLine(target: MonitorTarget): string {
  const values = ENDPOINT_IDS.map((id) => target.availability[id]);
  const common = values.sort((a, b) => values.filter((v) => v === b).length - values.filter((v) => v === a).length)[0] ?? 0;
  const others = ENDPOINT_IDS.filter((id) => target.availability[id] !== common).map((id) => `${id} ${percent(target.availability[id])}`);
  return `${percent(common)}${others.length > 0 ? ` (${others.join(', ')})` : ''}`;
}

function expectText(key: MonitorKey): string {
  const refused = Object.entries(key.expect ?? {}).map(([id, e]) => `${id} ${e.kind === 'refused' ? (e.code ?? 'refused') : 'read'}`);
  return refused.length > 0 ? `; expect refused: ${refused.join(', ')}` : '';
}

function seriesLine(config: MonitorConfig, plan: readonly ProbeSpec[]): string {
  const probes = plan.length;
  const p = projectedSeries(config, plan);
  // Per key, what each more key adds (its probes' series); the shared ones are said apart, so a
  // pilot config of 5 keys does not read as 5 x 237 for sizing.
  const perKey = p.keys > 0 ? `, ~${Math.round((p.total - p.shared) / p.keys)} per key, ${p.shared} shared` : '';
  const outcomes =
    (config.metrics?.perKeyOutcomes ?? false)
      ? 'outcome counters per key (metrics.perKeyOutcomes)'
      : 'outcome counters per target and endpoint';
  return `projected /metrics: ${p.total} repairmon_* series for ${probes} probe(s) (${p.perProbe.toFixed(1)} per probe${perKey}; ${outcomes}), plus ~50 process_/nodejs_ series`;
}

/** Probes and canaries per target, in one pass over the plan. */
function countsByTarget(plan: readonly ProbeSpec[]): Map<string, { probes: number; canaries: number }> {
  const counts = new Map<string, { probes: number; canaries: number }>();
  for (const p of plan) {
    let c = counts.get(p.target);
    if (!c) counts.set(p.target, (c = { probes: 0, canaries: 0 }));
    c.probes += 1;
    if (!isKeyRead(p.check)) c.canaries += 1;
  }
  return counts;
}

export function configSummary(config: MonitorConfig, plan: readonly ProbeSpec[] = buildPlan(config)): string {
  const lines = [
    `config OK: ${config.targets.length} target(s), ${plan.length} probe(s) per round, concurrency ${config.concurrency}`,
    seriesLine(config, plan),
  ];
  const counts = countsByTarget(plan);
  for (const target of config.targets) {
    const { probes, canaries } = counts.get(target.name) ?? { probes: 0, canaries: 0 };
    lines.push(
      `target ${target.name}: ${target.baseUrl}  schedule "${target.schedule}" (every ${formatDuration(target.intervalMs)}), timeout ${formatDuration(target.timeoutMs)}`,
      `  probes: ${probes} (${probes - canaries} reads, ${canaries} canaries)`,
      `  down after ${target.failureThreshold} consecutive service-side failures of a read (${recheckText(target)}); availability objective ${availabilityLine(target)}`,
      `  platformPaths: ${target.platformPaths.length > 0 ? target.platformPaths.map((p) => `/platform/${p}`).join(', ') : `none (default: ${PLATFORM_PATHS.reason})`}`,
      `  indexAccess: ${target.indexAccess}${target.indexAccess === INDEX_ACCESS.default ? ` (default: ${INDEX_ACCESS.reason})` : ''}`,
    );
    for (const key of target.keys) {
      const scope = key.kind === 'tenant' ? `tenant ${key.tenant ?? ''}` : `platform, tenants: ${key.tenants.join(', ') || '(none)'}`;
      lines.push(`  key ${key.alias} (${scope}; ${key.auth}; ${key.key.hint}${expectText(key)})`);
    }
    if (target.maintenance.length > 0) lines.push(`  maintenance windows: ${target.maintenance.length}`);
  }
  return `${lines.join('\n')}\n`;
}
