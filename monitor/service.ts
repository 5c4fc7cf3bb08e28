/**
 * The monitor: config -> plan (this shard's part) -> scheduler -> metrics and history.
 * `createMonitor(config, deps)` returns {start, stop, reload} plus what the HTTP surface reads.
 * No module state: two monitors in one process (tests) share nothing.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Dispatcher } from 'undici';
import { type ApiKey, RATE_LIMIT_POLICY } from '../api/client/index.js';
import { toolUserAgent } from '../lib/index.js';
import { openWindow } from './config/cron.js';
import { type ConfigResult, type MonitorConfig, type MonitorTarget, configKeys, httpSettings } from './config/types.js';
import { createConnections } from './connections.js';
import { type OnDemandGate, createOnDemandLimiter } from './http/debug-probe.js';
import { type History, createHistory } from './history.js';
import { durationBuckets } from './metrics/buckets.js';
import { createProbeMetrics } from './metrics/probe-metrics.js';
import { MonitorRegistry } from './metrics/registry.js';
import { createServiceMetrics } from './metrics/service-metrics.js';
import { buildPlan } from './probe/plan.js';
import { createPoliteness, holdKey } from './probe/politeness.js';
import { type ProbeDeps, type ProbeResult, logProbe, runProbe } from './probe/run.js';
import type { ProbeSpec } from './probe/spec.js';
import { createReloadQueue, readConfigSource, reportReload } from './reload.js';
import { createSchedulesInForce } from './schedule/in-force.js';
import { type Scheduler, createScheduler } from './schedule/scheduler.js';
import { NO_SHARD, type Shard, formatShard, onShard } from './shard.js';
import type { ProbeTracer } from './tracing.js';

export interface MonitorDeps {
  readonly logger: Logger;
  readonly shard?: Shard;
  readonly version?: string;
  /** Where `reload()` reads the new config from (the config file, for `serve`). */
  readonly load?: () => ConfigResult;
  /** Wall clock in ms. */
  readonly now?: () => number;
  readonly random?: () => number;
  /** Tests pass a MockAgent; by default one keep-alive Agent per target (see makeAgent). */
  readonly dispatcherFor?: (target: MonitorTarget) => Dispatcher;
  /** Run a first round right after start instead of waiting for the first cron tick. */
  readonly roundOnStart?: boolean;
  /** Where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read; process.env by default. */
  readonly env?: NodeJS.ProcessEnv;
  /** The caller shuts it down. */
  readonly tracer?: ProbeTracer | undefined;
}

/** An on-demand probe: run, or refused with how long to wait (HTTP 429 + Retry-After). */
export type OnDemandResult =
  { readonly kind: 'ran'; readonly result: ProbeResult } | { readonly kind: 'refused'; readonly gate: Exclude<OnDemandGate, { ok: true }> };

export type Monitor = ReturnType<typeof createMonitor>;
export type { ReloadResult } from './reload.js';

/** The plan of a config: every shard's probes (what `/probe` picks from), this shard's, and theirs per target. */
function planOf(config: MonitorConfig, shard: Shard) {
  const full = buildPlan(config);
  const mine = full.filter((p) => onShard(p, shard));
  // In one pass: a filter per target is targets x probes.
  const byTarget = new Map<string, ProbeSpec[]>();
  for (const p of mine) {
    const list = byTarget.get(p.target) ?? [];
    if (list.push(p) === 1) byTarget.set(p.target, list);
  }
  return { full, mine, ids: new Set(mine.map((p) => p.id)), byTarget };
}

export function createMonitor(initial: MonitorConfig, deps: MonitorDeps) {
  const shard = deps.shard ?? NO_SHARD;
  const now = deps.now ?? Date.now;
  const env = deps.env ?? process.env;
  const registry = new MonitorRegistry();
  const probeMetrics = (c: MonitorConfig) => ({ perKeyOutcomes: c.metrics?.perKeyOutcomes ?? false, buckets: durationBuckets(c.targets) });
  const probeSeries = createProbeMetrics(registry, probeMetrics(initial));
  const service = createServiceMetrics(
    registry,
    { version: deps.version ?? '0.0.0', shard: formatShard(shard) },
    { env, logger: deps.logger },
  );
  const userAgent = toolUserAgent(deps.version);
  const politeness = createPoliteness();
  const onDemand = createOnDemandLimiter();
  const connections = createConnections({
    dispatcherFor: deps.dispatcherFor,
    env,
    onCertificate: (t, at) => service.observeCertificate(t, at),
  });
  const schedules = createSchedulesInForce();
  let config = initial;
  let plan = planOf(initial, shard);
  let history = createHistory({ perProbe: initial.historyPerProbe });

  const probeDeps = (target: MonitorTarget): ProbeDeps => ({
    dispatcher: connections.for(target, config.concurrency),
    politeness,
    now,
    maxHoldMs: config.maxRateLimitHoldMs ?? RATE_LIMIT_POLICY.maxHoldMs,
    userAgent,
    tracer: deps.tracer,
  });

  /**
   * True when the probe is worth a recheck: a read that itself failed on the service's side, short
   * of down, its key not throttled (a 429 or a held probe keeps the streak but says nothing new).
   */
  async function runAndRecord(spec: ProbeSpec, target: MonitorTarget, signal: AbortSignal, recheck: boolean): Promise<boolean> {
    const result = await runProbe(spec, target, probeDeps(target), signal);
    // A retiring round's probe that the new config dropped records nothing.
    if (signal.aborted || !plan.ids.has(spec.id)) return false;
    const { failure, streak } = probeSeries.record(result, !recheck);
    history.add(result);
    logProbe(deps.logger, result);
    return (
      spec.check === 'read' &&
      failure === 'service' &&
      streak.count < target.failureThreshold &&
      !politeness.throttled(spec.target, spec.keyAlias)
    );
  }

  /** Every metric family, the history and the pacing keep only what `next` still has. */
  function describe(next: MonitorConfig, nextPlan: ReturnType<typeof planOf>): void {
    probeSeries.syncPlan(nextPlan.mine, probeMetrics(next));
    service.describe(next.targets, nextPlan.mine, nextPlan.full.length);
    if (next.historyPerProbe !== config.historyPerProbe) history = createHistory({ perProbe: next.historyPerProbe });
    history.retain(nextPlan.ids);
    politeness.retain(new Set(nextPlan.mine.map((p) => holdKey(p.target, p.keyAlias))));
    politeness.cap(now(), next.maxRateLimitHoldMs ?? RATE_LIMIT_POLICY.maxHoldMs);
    onDemand.retain(new Set(nextPlan.full.map((p) => holdKey(p.target, p.keyAlias))));
  }

  function schedulerFor(next: MonitorConfig): Scheduler {
    return createScheduler(
      next.targets.map((target) => ({ target, probes: plan.byTarget.get(target.name) ?? [] })),
      {
        concurrency: next.concurrency,
        metrics: service,
        logger: deps.logger,
        runProbe: runAndRecord,
        inMaintenance: (t) => openWindow(t, now()) !== undefined,
        oneAtATime: (p) => politeness.throttled(p.target, p.keyAlias),
        // A reload drops the rechecks not yet sent; one already sent is waited for, not sent twice.
        retiringRecheck: (id) => schedules.retiringRecheck(id),
        // Failures before a window say nothing about after it: the outage page then needs a
        // fresh run of failures, rather than firing on the old one the moment the window closes.
        onPaused: (t) => probeSeries.endStreaks(t.name, 'service'),
        ...(deps.random ? { random: deps.random } : {}),
      },
    );
  }

  /**
   * The new config takes over the schedule at once; a round under way finishes on the config it
   * started with, then its connections close.
   */
  function apply(next: MonitorConfig): number {
    const nextPlan = planOf(next, shard);
    describe(next, nextPlan);
    config = next;
    plan = nextPlan;
    const oldConnections = connections.replace(next.targets, next.concurrency);
    schedules.replace(schedulerFor(next), () => connections.close(oldConnections));
    service.reloadSuccessful.set(1);
    service.reloadTimestamp.set(now() / 1000);
    return nextPlan.mine.length;
  }

  function probeNow(spec: ProbeSpec): Promise<ProbeResult> {
    const target = config.targets.find((t) => t.name === spec.target);
    if (!target) return Promise.reject(new Error(`no target named "${spec.target}"`));
    return runProbe(spec, target, probeDeps(target));
  }

  const reloads = createReloadQueue(async (next) => {
    const result = next ?? readConfigSource(deps.load);
    if (result.ok) return reportReload(deps.logger, result.config, apply(result.config));
    service.reloadSuccessful.set(0);
    deps.logger.error({ issues: result.issues }, 'config reload failed; keeping the running config');
    return result;
  });

  apply(initial);

  return {
    registry: registry as Registry,
    get history(): History {
      return history;
    },
    shard,
    async start(): Promise<void> {
      schedules.start();
      deps.logger.info({ targets: config.targets.length, probes: plan.mine.length, shard: formatShard(shard) }, 'monitor started');
      if (deps.roundOnStart) void schedules.current()?.runOnce({ recheck: true });
    },
    async stop(): Promise<void> {
      // A reload under way would otherwise install its scheduler after this stop.
      await schedules.stop(reloads.settled());
      await connections.closeAll();
    },
    reload: (next?: ConfigResult) => reloads.reload(next),
    /** One unspread round of every target, awaited: tests drive ticks with it. */
    async runOnce(): Promise<void> {
      await schedules.current()?.runOnce();
    },
    async tick(target: string, options?: { spread?: boolean }): Promise<void> {
      await schedules.current()?.tick(target, options);
    },
    config: (): MonitorConfig => config,
    /** This shard's probes. */
    plan: (): readonly ProbeSpec[] => plan.mine,
    ready: (): boolean => schedules.started(),
    keys: (): ApiKey[] => configKeys(config),
    /** Runs one configured probe now without recording it or pacing it (tests, tools). */
    probeNow,
    /** `/probe`: like probeNow, but paced per key and refused while the key waits out a 429 hint. */
    async probeOnDemand(spec: ProbeSpec): Promise<OnDemandResult> {
      const at = now();
      const held = politeness.remainingMs(spec.target, spec.keyAlias, at);
      const gate = onDemand.admit(holdKey(spec.target, spec.keyAlias), at, httpSettings(config).onDemandIntervalMs, held);
      if (!gate.ok) return { kind: 'refused', gate };
      return { kind: 'ran', result: await probeNow(spec) };
    },
    /** Every probe of the config, any shard: what `/probe?debug=true` may pick from. */
    allProbes: (): readonly ProbeSpec[] => plan.full,
  };
}
