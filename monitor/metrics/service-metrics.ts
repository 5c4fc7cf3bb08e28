/**
 * The monitor's own metrics: build info, config reloads, maintenance, the scheduler's
 * saturation signals, the shard's share, each target's certificate and proxy, and Node's
 * default process metrics, all on our registry.
 */
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, type Registry, collectDefaultMetrics } from 'prom-client';
import type { MonitorTarget } from '../config/types.js';
import { targetProxy, targetProxyWarning } from '../probe/agent.js';
import type { ProbeSpec } from '../probe/spec.js';

export type ServiceMetrics = ReturnType<typeof createServiceMetrics>;

export const SCHEDULE_DELAY_BUCKETS: readonly number[] = [0.001, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30];
export const TICK_DURATION_BUCKETS: readonly number[] = [0.1, 0.5, 1, 5, 10, 30, 60, 120, 300];

/**
 * Why the scheduler skips a tick: the previous one still runs (node-cron's noOverlap), the
 * process woke up too late for it (node-cron's missed execution: a blocked event loop), or a
 * maintenance window is open. The first two are a monitor that cannot keep up.
 */
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

export function createServiceMetrics(registry: Registry, build: { readonly version: string; readonly shard: string }) {
  const registers = [registry];
  // prom-client samples event-loop lag every 10 ms by default: 100 wakeups a second, 9 ms of
  // CPU per second of an idle monitor on the 2-core VM. 100 ms keeps the lag figures useful.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  // These gauges end in _total, which `promtool check metrics` rejects; the per-type
  // nodejs_active_handles / _requests / _resources gauges carry the same numbers.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(name);
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers });
  const counter = (name: string, help: string, labelNames: string[]) => new Counter({ name, help, labelNames, registers });
  const histogram = (name: string, help: string, buckets: readonly number[]) =>
    new Histogram({ name, help, labelNames: ['target'], buckets: [...buckets], registers });
  gauge('repairmon_build_info', 'Build information; value 1', ['version', 'node_version', 'shard']).set(
    { version: build.version, node_version: process.version, shard: build.shard },
    1,
  );
  const metrics = {
    maintenanceActive: gauge('repairmon_maintenance_active', '1 while a maintenance window of the target is open (probes paused)', [
      'target',
    ]),
    reloadSuccessful: gauge('repairmon_config_last_reload_successful', '1 when the last config (re)load succeeded'),
    reloadTimestamp: gauge(
      'repairmon_config_last_reload_success_timestamp_seconds',
      'When the config was last loaded successfully (Unix time)',
    ),
    scheduleDelay: histogram(
      'repairmon_probe_schedule_delay_seconds',
      'How late a probe started against its planned (jittered) start: pool saturation',
      SCHEDULE_DELAY_BUCKETS,
    ),
    ticks: counter('repairmon_scheduler_ticks_total', 'Schedule ticks that ran', ['target']),
    ticksSkipped: counter(
      'repairmon_scheduler_ticks_skipped_total',
      'Schedule ticks skipped because the previous one was still running or a maintenance window was open',
      ['target', 'reason'],
    ),
    tickDuration: histogram(
      'repairmon_scheduler_tick_duration_seconds',
      'Wall time of a whole tick, spread included',
      TICK_DURATION_BUCKETS,
    ),
    inFlight: gauge('repairmon_scheduler_probes_in_flight', 'Probes running now'),
    queued: gauge('repairmon_scheduler_probes_queued', 'Probes due but waiting for a pool slot'),
    probesConfigured: gauge('repairmon_scheduler_probes_configured', 'Probes this shard runs per tick', ['target']),
    sloSeconds: gauge('repairmon_probe_slo_seconds', 'Configured latency SLO per endpoint', ['target', 'endpoint']),
    intervalSeconds: gauge('repairmon_schedule_interval_seconds', 'Shortest gap between two ticks of the target schedule', ['target']),
    failureThreshold: gauge(
      'repairmon_probe_failure_threshold',
      'Consecutive service-side failures of a read that make it down (failureThreshold in monitor.yaml)',
      ['target'],
    ),
    availabilityObjective: gauge(
      'repairmon_probe_availability_objective',
      'Availability objective of the reads of an endpoint, as a ratio (availability in monitor.yaml)',
      ['target', 'endpoint'],
    ),
  };
  return {
    ...metrics,
    dropTarget(target: string): void {
      metrics.maintenanceActive.remove({ target });
      metrics.scheduleDelay.remove({ target });
      metrics.ticks.remove({ target });
      for (const reason of SKIP_REASONS) metrics.ticksSkipped.remove({ target, reason });
      metrics.tickDuration.remove({ target });
      metrics.probesConfigured.remove({ target });
    },
    /** Sets the config-derived gauges (SLOs, intervals, thresholds, objectives) afresh. */
    describeConfig(targets: readonly MonitorTarget[], plan: readonly ProbeSpec[]): void {
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

/**
 * How much of the whole config this replica probes. Every replica reads the same config and
 * keeps its own share (`--shard i/N`), so the owned counts of all replicas add up to the total
 * exactly when each probe runs on one replica: RepairmonShardsIncomplete compares them.
 */
export function createShardMetrics(registry: Registry): { describe(owned: number, total: number): void } {
  const registers = [registry];
  const owned = new Gauge({
    name: 'repairmon_shard_owned_probes',
    help: "Probes of the whole config that this replica's shard runs",
    registers,
  });
  const total = new Gauge({ name: 'repairmon_config_probes', help: 'Probes of the whole config, every shard together', registers });
  return {
    describe(ownedCount, totalCount) {
      owned.set(ownedCount);
      total.set(totalCount);
    },
  };
}

/** A target's https identity: a change of URL or trust drops its certificate series until its next connection. */
function tlsIdentity(t: MonitorTarget): string | undefined {
  if (!/^https:/i.test(t.baseUrl)) return undefined;
  return JSON.stringify([t.baseUrl, t.tls?.caFile ?? '', t.tls?.ca ?? '', t.tls?.serverName ?? '']);
}

/** The certificate each https target served, set when a connection opens (probe/agent.ts); labelled by target name only. */
export function createTlsMetrics(registry: Registry) {
  const expiry = new Gauge({
    name: 'repairmon_tls_cert_expiry_timestamp_seconds',
    help: "When the leaf certificate served on the target's latest new TLS connection expires (Unix time); https targets only",
    labelNames: ['target'],
    registers: [registry],
  });
  let watched = new Map<string, string>();
  return {
    observe(target: string, expiresAtSeconds: number): void {
      // A late connection of a removed target must not bring its series back.
      if (watched.has(target)) expiry.set({ target }, expiresAtSeconds);
    },
    retain(targets: readonly MonitorTarget[]): void {
      const next = new Map(targets.flatMap((t) => (tlsIdentity(t) === undefined ? [] : [[t.name, tlsIdentity(t)] as const])));
      for (const [name, id] of watched) if (next.get(name) !== id) expiry.remove({ target: name });
      watched = next as Map<string, string>;
    },
  };
}

/**
 * `repairmon_target_proxy_info{target, proxy}`: the proxy's `host:port` (never its credentials)
 * or `direct`, and a warning, once per target, for a plain-http target whose key crosses a
 * proxy in clear.
 */
export function createProxyRoutes(registry: Registry, env: NodeJS.ProcessEnv, logger: Logger) {
  const info = new Gauge({
    name: 'repairmon_target_proxy_info',
    help: 'The proxy (host:port) the target\'s probes go through, or "direct"; value 1',
    labelNames: ['target', 'proxy'],
    registers: [registry],
  });
  /** `name baseUrl` of the targets already warned about: a reload does not repeat the warning. */
  const warned = new Set<string>();
  return {
    describe(targets: readonly MonitorTarget[]): void {
      info.reset();
      for (const t of targets) {
        info.set({ target: t.name, proxy: targetProxy(t, env) ?? 'direct' }, 1);
        const warning = targetProxyWarning(t, env);
        if (warning === undefined || warned.has(`${t.name} ${t.baseUrl}`)) continue;
        warned.add(`${t.name} ${t.baseUrl}`);
        logger.warn({ target: t.name }, warning);
      }
    },
  };
}
