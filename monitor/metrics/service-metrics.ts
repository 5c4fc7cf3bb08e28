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
    const key = `${p.target}\u0000${p.endpointLabel}`;
    if (p.check === 'read' && !seen.has(key)) seen.set(key, { target: p.target, endpoint: p.endpointLabel, id: p.endpoint });
  }
  return [...seen.values()];
}

/** The (target, endpoint) pairs of the plan's reads that have a latency SLO, with it: `repairmon_probe_slo_seconds`. */
export function sloLabels(plan: readonly ProbeSpec[], targets: readonly MonitorTarget[]) {
  const byName = new Map(targets.map((t) => [t.name, t]));
  return objectiveLabels(plan).flatMap(({ target, endpoint, id }) => {
    const sloMs = byName.get(target)?.sloMs[id];
    return sloMs === undefined ? [] : [{ target, endpoint, sloMs }];
  });
}

/** A target's https identity: a change of URL or trust drops its certificate series until its next connection. */
function tlsIdentity(t: MonitorTarget): string | undefined {
  if (!/^https:/i.test(t.baseUrl)) return undefined;
  return JSON.stringify([t.baseUrl, t.tls?.caFile ?? '', t.tls?.ca ?? '', t.tls?.serverName ?? '']);
}

/** `env` and `logger`: where the proxy route of each target is read, and its plain-http warning goes. */
export function createServiceMetrics(
  registry: Registry,
  build: { readonly version: string; readonly shard: string },
  { env = process.env, logger }: { readonly env?: NodeJS.ProcessEnv; readonly logger?: Logger } = {},
) {
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
  const m = {
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
    rechecks: counter(
      'repairmon_scheduler_rechecks_total',
      'Failing reads probed again before the next tick (recheckAfter in monitor.yaml)',
      ['target'],
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
    tlsExpiry: gauge(
      'repairmon_tls_cert_expiry_timestamp_seconds',
      "When the leaf certificate served on the target's latest new TLS connection expires (Unix time); https targets only",
      ['target'],
    ),
    // Every replica reads the same config and keeps its own share (`--shard i/N`), so the owned
    // counts of all replicas add up to the total exactly when each probe runs on one replica:
    // RepairmonShardsIncomplete compares them.
    shardOwned: gauge('repairmon_shard_owned_probes', "Probes of the whole config that this replica's shard runs"),
    configProbes: gauge('repairmon_config_probes', 'Probes of the whole config, every shard together'),
    proxyInfo: gauge('repairmon_target_proxy_info', 'The proxy (host:port) the target\'s probes go through, or "direct"; value 1', [
      'target',
      'proxy',
    ]),
  };
  let targets: readonly MonitorTarget[] = [];
  /** Target name -> https identity, for the targets whose certificate series are kept. */
  let watched = new Map<string, string>();
  /** `name baseUrl` of the targets already warned about: a reload does not repeat the warning. */
  const warned = new Set<string>();
  return {
    ...m,
    /** The certificate a new TLS connection showed (probe/agent.ts); a late connection of a removed target is dropped. */
    observeCertificate(target: string, expiresAtSeconds: number): void {
      if (watched.has(target)) m.tlsExpiry.set({ target }, expiresAtSeconds);
    },
    /** Sets the config-derived series afresh and drops those of targets the config no longer has. */
    describe(next: readonly MonitorTarget[], plan: readonly ProbeSpec[], totalProbes: number): void {
      const names = new Set(next.map((t) => t.name));
      for (const { name: target } of targets.filter((t) => !names.has(t.name))) {
        for (const metric of [m.maintenanceActive, m.scheduleDelay, m.ticks, m.rechecks, m.tickDuration, m.probesConfigured])
          metric.remove({ target });
        for (const reason of SKIP_REASONS) m.ticksSkipped.remove({ target, reason });
      }
      targets = next;
      for (const metric of [m.sloSeconds, m.intervalSeconds, m.failureThreshold, m.availabilityObjective, m.proxyInfo]) metric.reset();
      const byName = new Map(next.map((t) => [t.name, t]));
      for (const { target, endpoint, id } of objectiveLabels(plan)) {
        const objective = byName.get(target)?.availability[id];
        if (objective !== undefined) m.availabilityObjective.set({ target, endpoint }, objective);
      }
      // Per endpoint label, as every per-probe series: platform/<sub>, so latency and SLO join on it.
      for (const { target, endpoint, sloMs } of sloLabels(plan, next)) m.sloSeconds.set({ target, endpoint }, sloMs / 1000);
      for (const t of next) {
        m.intervalSeconds.set({ target: t.name }, t.intervalMs / 1000);
        m.failureThreshold.set({ target: t.name }, t.failureThreshold);
        // At 0 from the start, so increase() and rate() see the first skip rather than a new series.
        for (const reason of SKIP_REASONS) m.ticksSkipped.inc({ target: t.name, reason }, 0);
        m.rechecks.inc({ target: t.name }, 0);
        m.proxyInfo.set({ target: t.name, proxy: targetProxy(t, env) ?? 'direct' }, 1);
        const warning = targetProxyWarning(t, env);
        if (warning !== undefined && !warned.has(`${t.name} ${t.baseUrl}`)) {
          warned.add(`${t.name} ${t.baseUrl}`);
          logger?.warn({ target: t.name }, warning);
        }
      }
      m.shardOwned.set(plan.length);
      m.configProbes.set(totalProbes);
      const nextWatched = new Map(next.flatMap((t) => (tlsIdentity(t) === undefined ? [] : [[t.name, tlsIdentity(t) ?? '']])));
      for (const [name, id] of watched) if (nextWatched.get(name) !== id) m.tlsExpiry.remove({ target: name });
      watched = nextWatched;
    },
  };
}
