/** The human summary `check-config` prints: targets, keys by alias, probe counts. No secrets. */
import { INDEX_ACCESS, PLATFORM_PATHS } from '../../api/contract/index.js';
import { buildPlan } from '../probe/plan.js';
import { formatDuration } from './duration.js';
import type { MonitorConfig } from './types.js';

export function configSummary(config: MonitorConfig): string {
  const plan = buildPlan(config);
  const lines = [`config OK: ${config.targets.length} target(s), ${plan.length} probe(s) per round, concurrency ${config.concurrency}`];
  for (const target of config.targets) {
    const probes = plan.filter((p) => p.target === target.name);
    const canaries = probes.filter((p) => p.check !== 'read').length;
    lines.push(
      `target ${target.name}: ${target.baseUrl}  schedule "${target.schedule}" (every ${formatDuration(target.intervalMs)}), timeout ${formatDuration(target.timeoutMs)}`,
      `  probes: ${probes.length} (${probes.length - canaries} reads, ${canaries} canaries)`,
      `  platformPaths: ${target.platformPaths.length > 0 ? target.platformPaths.map((p) => `/platform/${p}`).join(', ') : `none (default: ${PLATFORM_PATHS.reason})`}`,
      `  indexAccess: ${target.indexAccess}${target.indexAccess === INDEX_ACCESS.default ? ` (default: ${INDEX_ACCESS.reason})` : ''}`,
    );
    for (const key of target.keys) {
      const scope = key.kind === 'tenant' ? `tenant ${key.tenant ?? ''}` : `platform, tenants: ${key.tenants.join(', ') || '(none)'}`;
      lines.push(`  key ${key.alias} (${scope}; ${key.auth}; ${key.key.hint})`);
    }
    if (target.maintenance.length > 0) lines.push(`  maintenance windows: ${target.maintenance.length}`);
  }
  return `${lines.join('\n')}\n`;
}
