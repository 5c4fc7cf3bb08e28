/** The human summary `check-config` prints: targets, keys by alias, probe counts, projected series. No secrets. */
import { ENDPOINT_IDS, INDEX_ACCESS, PLATFORM_PATHS } from '../../api/contract/index.js';
import { projectedSeries } from '../metrics/projection.js';
import { buildPlan } from '../probe/plan.js';
import { formatDuration } from './duration.js';
import type { MonitorConfig, MonitorKey, MonitorTarget } from './types.js';

const percent = (ratio: number): string => `${Math.round(ratio * 100_000) / 1000}%`;

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

function seriesLine(config: MonitorConfig, probes: number): string {
  const p = projectedSeries(config);
  const perKey = p.keys > 0 ? `, ~${Math.round(p.total / p.keys)} per key` : '';
  const outcomes = (config.metrics?.perKeyOutcomes ?? false) ? 'outcome counters per key (metrics.perKeyOutcomes)' : 'outcome counters per target and endpoint';
  return `projected /metrics: ${p.total} repairmon_* series for ${probes} probe(s) (${p.perProbe.toFixed(1)} per probe${perKey}; ${outcomes}), plus ~50 process_/nodejs_ series`;
}

export function configSummary(config: MonitorConfig): string {
  const plan = buildPlan(config);
  const lines = [`config OK: ${config.targets.length} target(s), ${plan.length} probe(s) per round, concurrency ${config.concurrency}`, seriesLine(config, plan.length)];
  for (const target of config.targets) {
    const probes = plan.filter((p) => p.target === target.name);
    const canaries = probes.filter((p) => p.check !== 'read').length;
    lines.push(
      `target ${target.name}: ${target.baseUrl}  schedule "${target.schedule}" (every ${formatDuration(target.intervalMs)}), timeout ${formatDuration(target.timeoutMs)}`,
      `  probes: ${probes.length} (${probes.length - canaries} reads, ${canaries} canaries)`,
      `  down after ${target.failureThreshold} consecutive service-side failures of a read; availability objective ${availabilityLine(target)}`,
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
