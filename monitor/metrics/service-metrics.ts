/**
 * The monitor's own metrics: build info, config reloads, maintenance, the scheduler's
 * saturation signals, and Node's default process metrics, all on our registry.
 */
import { Counter, Gauge, Histogram, type Registry, collectDefaultMetrics } from 'prom-client';
import type { MonitorTarget } from '../config/types.js';
import type { ProbeSpec } from '../probe/spec.js';

/** How often event-loop lag is sampled for `nodejs_eventloop_lag_*`. */
export const EVENT_LOOP_SAMPLE_MS = 100;

export interface ServiceMetrics {
  readonly maintenanceActive: Gauge;
  readonly reloadSuccessful: Gauge;
  readonly reloadTimestamp: Gauge;
  readonly scheduleDelay: Histogram;
  readonly ticks: Counter;
  readonly ticksSkipped: Counter;
  readonly tickDuration: Histogram;
  readonly inFlight: Gauge;
  readonly queued: Gauge;
  readonly probesConfigured: Gauge;
  /** Config-derived; reset and set again on every (re)load. */
  readonly sloSeconds: Gauge;
  readonly intervalSeconds: Gauge;
  readonly failureThreshold: Gauge;
  readonly availabilityObjective: Gauge;
  dropTarget(target: string): void;
  /** Sets the config-derived gauges (SLOs, intervals, thresholds, objectives) afresh. */
  describeConfig(targets: readonly MonitorTarget[], plan: readonly ProbeSpec[]): void;
}

/**
 * Why the scheduler skips a tick: the previous one still runs (node-cron's noOverlap), the
 * process woke up too late for it (node-cron's missed execution: a blocked event loop), or a
 * maintenance window is open. The first two are a monitor that cannot keep up.
 */
export const SCHEDULE_DELAY_BUCKETS: readonly number[] = [0.001, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30];
export const TICK_DURATION_BUCKETS: readonly number[] = [0.1, 0.5, 1, 5, 10, 30, 60, 120, 300];

export const SKIP_REASONS = ['overlap', 'missed', 'maintenance'] as const;

/** The (target, endpoint) pairs of the plan's reads: where an availability objective applies. */
export function objectiveLabels(plan: readonly ProbeSpec[]): Array<{ target: string; endpoint: string; id: ProbeSpec['endpoint'] }> {
  const seen = new Map<string, { target: string; endpoint: string; id: ProbeSpec['endpoint'] }>();
  for (const p of plan) {
    if (p.check !== 'read') continue;
    const key = `${p.target}\u0000${p.endpointLabel}`;
    if (!seen.has(key)) seen.set(key, { target: p.target, endpoint: p.endpointLabel, id: p.endpoint });
  }
  return [...seen.values()];
}

export interface BuildInfo {
  readonly version: string;
  readonly shard: string;
}

export function createServiceMetrics(registry: Registry, build: BuildInfo): ServiceMetrics {
  const registers = [registry];
  // prom-client samples event-loop lag every 10 ms by default: 100 wakeups a second, 9 ms of
  // CPU per second of an idle monitor on the 2-core VM. 100 ms keeps the lag figures useful.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  // These gauges end in _total, which `promtool check metrics` rejects; the per-type
  // nodejs_active_handles / _requests / _resources gauges carry the same numbers.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(name);
  new Gauge({
    name: 'repairmon_build_info',
    help: 'Build information; value 1',
    labelNames: ['version', 'node_version', 'shard'],
    registers,
  }).set({ version: build.version, node_version: process.version, shard: build.shard }, 1);
  const metrics = {
    maintenanceActive: new Gauge({
      name: 'repairmon_maintenance_active',
      help: '1 while a maintenance window of the target is open (probes paused)',
      labelNames: ['target'],
      registers,
    }),
    reloadSuccessful: new Gauge({
      name: 'repairmon_config_last_reload_successful',
      help: '1 when the last config (re)load succeeded',
      registers,
    }),
    reloadTimestamp: new Gauge({
      name: 'repairmon_config_last_reload_success_timestamp_seconds',
      help: 'When the config was last loaded successfully (Unix time)',
      registers,
    }),
    scheduleDelay: new Histogram({
      name: 'repairmon_probe_schedule_delay_seconds',
      help: 'How late a probe started against its planned (jittered) start: pool saturation',
      labelNames: ['target'],
      buckets: [...SCHEDULE_DELAY_BUCKETS],
      registers,
    }),
    ticks: new Counter({ name: 'repairmon_scheduler_ticks_total', help: 'Schedule ticks that ran', labelNames: ['target'], registers }),
    ticksSkipped: new Counter({
      name: 'repairmon_scheduler_ticks_skipped_total',
      help: 'Schedule ticks skipped because the previous one was still running or a maintenance window was open',
      labelNames: ['target', 'reason'],
      registers,
    }),
    tickDuration: new Histogram({
      name: 'repairmon_scheduler_tick_duration_seconds',
      help: 'Wall time of a whole tick, spread included',
      labelNames: ['target'],
      buckets: [...TICK_DURATION_BUCKETS],
      registers,
    }),
    inFlight: new Gauge({ name: 'repairmon_scheduler_probes_in_flight', help: 'Probes running now', registers }),
    queued: new Gauge({ name: 'repairmon_scheduler_probes_queued', help: 'Probes due but waiting for a pool slot', registers }),
    probesConfigured: new Gauge({
      name: 'repairmon_scheduler_probes_configured',
      help: 'Probes this shard runs per tick',
      labelNames: ['target'],
      registers,
    }),
    sloSeconds: new Gauge({
      name: 'repairmon_probe_slo_seconds',
      help: 'Configured latency SLO per endpoint',
      labelNames: ['target', 'endpoint'],
      registers,
    }),
    intervalSeconds: new Gauge({
      name: 'repairmon_schedule_interval_seconds',
      help: 'Shortest gap between two ticks of the target schedule',
      labelNames: ['target'],
      registers,
    }),
    failureThreshold: new Gauge({
      name: 'repairmon_probe_failure_threshold',
      help: 'Consecutive service-side failures of a read that make it down (failureThreshold in monitor.yaml)',
      labelNames: ['target'],
      registers,
    }),
    availabilityObjective: new Gauge({
      name: 'repairmon_probe_availability_objective',
      help: 'Availability objective of the reads of an endpoint, as a ratio (availability in monitor.yaml)',
      labelNames: ['target', 'endpoint'],
      registers,
    }),
  };
  return {
    ...metrics,
    dropTarget(target) {
      metrics.maintenanceActive.remove({ target });
      metrics.scheduleDelay.remove({ target });
      metrics.ticks.remove({ target });
      for (const reason of SKIP_REASONS) metrics.ticksSkipped.remove({ target, reason });
      metrics.tickDuration.remove({ target });
      metrics.probesConfigured.remove({ target });
    },
    describeConfig(targets, plan) {
      metrics.sloSeconds.reset();
      metrics.intervalSeconds.reset();
      metrics.failureThreshold.reset();
      metrics.availabilityObjective.reset();
      const byName = new Map(targets.map((t) => [t.name, t]));
      for (const { target, endpoint, id } of objectiveLabels(plan)) {
        const objective = byName.get(target)?.availability[id];
        if (objective !== undefined) metrics.availabilityObjective.set({ target, endpoint }, objective);
      }
      for (const t of targets) {
        metrics.intervalSeconds.set({ target: t.name }, t.intervalMs / 1000);
        metrics.failureThreshold.set({ target: t.name }, t.failureThreshold);
        // At 0 from the start, so increase() and rate() see the first skip rather than a new series.
        for (const reason of SKIP_REASONS) metrics.ticksSkipped.inc({ target: t.name, reason }, 0);
        for (const [endpoint, ms] of Object.entries(t.sloMs)) metrics.sloSeconds.set({ target: t.name, endpoint }, (ms ?? 0) / 1000);
      }
    },
  };
}
