/**
 * How many `repairmon_*` series a config puts on /metrics, from the config alone (what
 * `check-config` prints, so a series budget can be checked before anything runs): the steady
 * state after one round in which every probe got its expected answer outside maintenance.
 * Node's own `process_*` and `nodejs_*` series (about 50) come on top. Pure.
 */
import type { MonitorConfig } from '../config/types.js';
import { OUTCOMES } from '../probe/expectation.js';
import { buildPlan } from '../probe/plan.js';
import type { ProbeSpec } from '../probe/spec.js';
import { durationBuckets } from './buckets.js';
import { SCHEDULE_DELAY_BUCKETS, SKIP_REASONS, TICK_DURATION_BUCKETS, objectiveLabels, sloLabels } from './service-metrics.js';

const distinct = (plan: readonly ProbeSpec[], key: (p: ProbeSpec) => string): number => new Set(plan.map(key)).size;

/** A histogram's series per label set: its buckets, +Inf, _sum and _count. */
const histogram = (buckets: readonly number[]): number => buckets.length + 3;

function perProbeFamilies(plan: readonly ProbeSpec[], perKeyOutcomes: boolean): Record<string, number> {
  const n = plan.length;
  return {
    repairmon_probe_success: n,
    ...(perKeyOutcomes ? { repairmon_probes_total: n * OUTCOMES.length } : {}),
    repairmon_probe_last_duration_seconds: n,
    repairmon_probe_http_status_code: n,
    repairmon_probe_failure_reason: n,
    // Any read answered with an array has an item count; /platform/ answers' shape is not shown,
    // so its reads are counted as lists (an upper bound).
    repairmon_probe_data_items: plan.filter((p) => p.expect.kind === 'success' && (p.expect.list || p.endpoint === 'platform')).length,
    repairmon_probe_last_run_timestamp_seconds: n,
    repairmon_probe_last_success_timestamp_seconds: n,
    repairmon_probe_consecutive_failures: n,
  };
}

function sharedFamilies(config: MonitorConfig, plan: readonly ProbeSpec[]): Record<string, number> {
  const targets = config.targets.length;
  return {
    ...((config.metrics?.perKeyOutcomes ?? false)
      ? {}
      : { repairmon_probes_total: distinct(plan, (p) => `${p.target}\u0000${p.endpointLabel}\u0000${p.check}`) * OUTCOMES.length }),
    repairmon_probe_duration_seconds:
      distinct(plan, (p) => `${p.target}\u0000${p.endpointLabel}`) * histogram(durationBuckets(config.targets)),
    repairmon_probe_retry_after_seconds: distinct(plan, (p) => `${p.target}\u0000${p.keyAlias}`),
    repairmon_build_info: 1,
    repairmon_maintenance_active: targets,
    repairmon_config_last_reload_successful: 1,
    repairmon_config_last_reload_success_timestamp_seconds: 1,
    repairmon_probe_schedule_delay_seconds: targets * histogram(SCHEDULE_DELAY_BUCKETS),
    repairmon_scheduler_ticks_total: targets,
    repairmon_scheduler_ticks_skipped_total: targets * SKIP_REASONS.length,
    repairmon_scheduler_rechecks_total: targets,
    repairmon_scheduler_tick_duration_seconds: targets * histogram(TICK_DURATION_BUCKETS),
    repairmon_scheduler_probes_in_flight: 1,
    repairmon_scheduler_probes_queued: 1,
    repairmon_scheduler_probes_configured: targets,
    repairmon_shard_owned_probes: 1,
    repairmon_config_probes: 1,
    repairmon_probe_slo_seconds: sloLabels(plan, config.targets).length,
    repairmon_schedule_interval_seconds: targets,
    repairmon_probe_failure_threshold: targets,
    repairmon_probe_availability_objective: objectiveLabels(plan).length,
    repairmon_tls_cert_expiry_timestamp_seconds: config.targets.filter((t) => /^https:/i.test(t.baseUrl)).length,
    repairmon_target_proxy_info: targets,
  };
}

/** `total`: every `repairmon_*` series, `shared` of them not per probe; `perProbe`: series of the per-probe families (outcome counters included when per key), per probe. */
export function projectedSeries(config: MonitorConfig, plan: readonly ProbeSpec[] = buildPlan(config)) {
  const perKeyOutcomes = config.metrics?.perKeyOutcomes ?? false;
  const perProbe = perProbeFamilies(plan, perKeyOutcomes);
  const byFamily = { ...sharedFamilies(config, plan), ...perProbe };
  const sum = (r: Record<string, number>): number => Object.values(r).reduce((a, b) => a + b, 0);
  // What the configured keys' own probes add (their per-probe series and retry-after gauge); the
  // rest (per target, endpoint, the keyless canaries, the service) is shared, whatever the keys.
  const own = new Set(config.targets.flatMap((t) => t.keys.map((k) => `${t.name}\u0000${k.alias}`)));
  const keyed = plan.filter((p) => own.has(`${p.target}\u0000${p.keyAlias}`));
  const perKeys = sum(perProbeFamilies(keyed, perKeyOutcomes)) + own.size;
  return {
    total: sum(byFamily),
    /** Series that do not grow with keys: what a pilot config's few keys must not be charged with. */
    shared: sum(byFamily) - perKeys,
    probes: plan.length,
    keys: config.targets.reduce((n, t) => n + t.keys.length, 0),
    perProbe: plan.length === 0 ? 0 : sum(perProbe) / plan.length,
    byFamily,
  };
}
