/**
 * What `check-config` says about a valid config beyond "valid": schedules that do not mean
 * what they seem to, a schedule the probes cannot keep up with, a recheck that can rarely start
 * before the next tick, and a plain-http target whose
 * key crosses a proxy in clear. Pure but for the environment it is handed; warnings never fail
 * the check, they explain.
 */
import { targetProxyWarning } from '../probe/agent.js';
import { type ProbeSpec, buildPlan } from '../probe/plan.js';
import { formatDuration } from '../config/duration.js';
import type { ConfigIssue, MonitorConfig, MonitorTarget } from '../config/types.js';
import { spreadWindowMs } from '../schedule/scheduler.js';

/**
 * The share of a round's reads that can be rechecked when they fail at once: a probe starting at
 * offset o of the spread gets a recheck only if o + recheckAfter is before the next tick.
 */
function recheckShare(target: MonitorTarget): number {
  if (target.recheckAfterMs <= 0) return 1;
  const window = spreadWindowMs(target.intervalMs, target.timeoutMs);
  const room = target.intervalMs - target.recheckAfterMs;
  return window <= 0 ? (room > 0 ? 1 : 0) : Math.max(0, Math.min(1, room / window));
}

export function configWarnings(
  config: MonitorConfig,
  plan: readonly ProbeSpec[] = buildPlan(config),
  env: NodeJS.ProcessEnv = process.env,
): ConfigIssue[] {
  const perTarget = new Map<string, number>();
  for (const p of plan) perTarget.set(p.target, (perTarget.get(p.target) ?? 0) + 1);
  return config.targets.flatMap((target, i): ConfigIssue[] => {
    const warnings: ConfigIssue[] = [];
    // A 5-field expression has no seconds field: node-cron reads it as minutes, at second 0.
    if (target.schedule.trim().split(/\s+/).length === 5) {
      warnings.push({
        path: `targets[${i}].schedule`,
        message: `"${target.schedule}" has 5 fields, so its first field is minutes: it fires at second 0 of each matching minute (every ${formatDuration(target.intervalMs)}); write 6 fields, seconds first, to say exactly what you mean (e.g. "0 ${target.schedule}")`,
      });
    }
    // Worst case: every probe runs into its timeout, `concurrency` at a time.
    const probes = perTarget.get(target.name) ?? 0;
    const worstMs = (probes / config.concurrency) * target.timeoutMs;
    if (worstMs > target.intervalMs) {
      warnings.push({
        path: `targets[${i}]`,
        message: `${probes} probes per tick / concurrency ${config.concurrency} x timeout ${formatDuration(target.timeoutMs)} = ${Math.round(worstMs / 100) / 10} s, more than the ${formatDuration(target.intervalMs)} between ticks: when the API slows to the timeout the schedule cannot keep up (ticks are skipped as overlap); raise concurrency, shorten the timeout, lengthen the schedule or shard`,
      });
    }
    const rechecked = recheckShare(target);
    if (rechecked < 0.5) {
      warnings.push({
        path: `targets[${i}].recheckAfter`,
        message: `${formatDuration(target.recheckAfterMs)} after a failure, at an interval of ${formatDuration(target.intervalMs)}: a recheck must start before the next tick, so only reads probed in the first ${Math.round(rechecked * 100)} % of the round's spread can be rechecked, and fewer when they time out; shorten recheckAfter (default a third of the interval, at most 10s) or set it off`,
      });
    }
    const proxied = targetProxyWarning(target, env);
    if (proxied !== undefined) warnings.push({ path: `targets[${i}].baseUrl`, message: proxied });
    return warnings;
  });
}
