/**
 * The monitor: config -> plan (this shard's part) -> scheduler -> metrics and history.
 * `createMonitor(config, deps)` returns {start, stop, reload} plus what the HTTP surface reads.
 * No module state: two monitors in one process (tests) share nothing.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Dispatcher } from 'undici';
import type { ApiKey } from '../api/client/index.js';
import { toolUserAgent } from '../lib/index.js';
import { openWindow } from './config/cron.js';
import { type ConfigIssue, type ConfigResult, type MonitorConfig, type MonitorTarget, configKeys, httpSettings } from './config/types.js';
import { type OnDemandGate, createOnDemandLimiter } from './http/debug-probe.js';
import { type History, createHistory } from './history.js';
import { makeAgent } from './probe/agent.js';
import { durationBuckets } from './metrics/buckets.js';
import { createProbeMetrics } from './metrics/probe-metrics.js';
import { MonitorRegistry } from './metrics/registry.js';
import { createProxyRoutes, createServiceMetrics, createShardMetrics, createTlsMetrics } from './metrics/service-metrics.js';
import { buildPlan } from './probe/plan.js';
import { createPoliteness, holdKey } from './probe/politeness.js';
import { DEFAULT_MAX_HOLD_MS, type ProbeResult, logProbe, runProbe } from './probe/run.js';
import type { ProbeSpec } from './probe/spec.js';
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

export type ReloadResult =
  | {
      readonly ok: true;
      readonly probes: number;
      /** Aliases whose keys come from `${ENV}`: a reload cannot see a changed environment, so they keep their start-up values. */
      readonly envKeysKept: readonly string[];
    }
  | { readonly ok: false; readonly issues: readonly ConfigIssue[] };

/** An on-demand probe: run, or refused with how long to wait (HTTP 429 + Retry-After). */
export type OnDemandResult =
  { readonly kind: 'ran'; readonly result: ProbeResult } | { readonly kind: 'refused'; readonly gate: Exclude<OnDemandGate, { ok: true }> };

export type Monitor = ReturnType<typeof createMonitor>;

/** `target/alias` of every key read from the environment, for the reload warning. */
function envKeyAliases(config: MonitorConfig): string[] {
  return config.targets.flatMap((t) => t.keys.filter((k) => k.origin?.kind === 'env').map((k) => `${t.name}/${k.alias}`));
}

export function createMonitor(initial: MonitorConfig, deps: MonitorDeps) {
  const registry = new MonitorRegistry();
  const shard = deps.shard ?? NO_SHARD;
  const now = deps.now ?? Date.now;
  const probeMetrics = createProbeMetrics(registry, {
    perKeyOutcomes: initial.metrics?.perKeyOutcomes ?? false,
    buckets: durationBuckets(initial.targets),
  });
  const service = createServiceMetrics(registry, { version: deps.version ?? '0.0.0', shard: formatShard(shard) });
  const tlsMetrics = createTlsMetrics(registry);
  const shardMetrics = createShardMetrics(registry);
  const env = deps.env ?? process.env;
  const proxyRoutes = createProxyRoutes(registry, env, deps.logger);
  const userAgent = toolUserAgent(deps.version);
  const politeness = createPoliteness();
  const onDemand = createOnDemandLimiter();
  let config = initial;
  let plan: ProbeSpec[] = [];
  // Every shard's probes, built once per config: `/probe` picks from it on every request.
  let fullPlan: readonly ProbeSpec[] = [];
  let history = createHistory({ perProbe: initial.historyPerProbe });
  let agents = new Map<string, Dispatcher>();
  let scheduler: Scheduler | undefined;
  /** Schedules a reload replaced, finishing the rounds they had under way. */
  const retiring = new Set<Scheduler>();
  /** Ids of the plan in force: a retiring round's probe that the new config dropped records nothing. */
  let planIds: ReadonlySet<string> = new Set();
  let started = false;
  /** The tail of the reload queue; never rejects. */
  let reloads: Promise<void> = Promise.resolve();
  /** A reload from the config source that waits for its turn: reloads asked for meanwhile join it. */
  let queuedRead: Promise<ReloadResult> | undefined;

  const newDispatcher = (t: MonitorTarget, concurrency: number): Dispatcher =>
    deps.dispatcherFor?.(t) ?? makeAgent(t, concurrency, { onCertificate: (at) => tlsMetrics.observe(t.name, at) }, env);
  function dispatcher(target: MonitorTarget): Dispatcher {
    let found = agents.get(target.name);
    if (!found) agents.set(target.name, (found = newDispatcher(target, config.concurrency)));
    return found;
  }

  const probeDeps = (target: MonitorTarget) => ({
    dispatcher: dispatcher(target),
    politeness,
    now,
    maxHoldMs: config.maxRateLimitHoldMs ?? DEFAULT_MAX_HOLD_MS,
    userAgent,
    tracer: deps.tracer,
  });

  async function runAndRecord(spec: ProbeSpec, target: MonitorTarget, signal: AbortSignal): Promise<void> {
    const result = await runProbe(spec, target, { ...probeDeps(target), signal });
    if (signal.aborted || !planIds.has(spec.id)) return;
    probeMetrics.record(result);
    history.add(result);
    logProbe(deps.logger, result);
  }

  function install(next: MonitorConfig): number {
    const nextFullPlan = buildPlan(next);
    const nextPlan = nextFullPlan.filter((p) => onShard(p, shard));
    probeMetrics.syncPlan(nextPlan, { perKeyOutcomes: next.metrics?.perKeyOutcomes ?? false, buckets: durationBuckets(next.targets) });
    const nextNames = new Set(next.targets.map((t) => t.name));
    for (const t of config.targets) if (!nextNames.has(t.name)) service.dropTarget(t.name);
    service.describeConfig(next.targets, nextPlan);
    shardMetrics.describe(nextPlan.length, nextFullPlan.length);
    tlsMetrics.retain(next.targets);
    proxyRoutes.describe(next.targets);
    if (next.historyPerProbe !== config.historyPerProbe) history = createHistory({ perProbe: next.historyPerProbe });
    history.retain(new Set(nextPlan.map((p) => p.id)));
    politeness.retain(new Set(nextPlan.map((p) => holdKey(p.target, p.keyAlias))));
    politeness.cap(now(), next.maxRateLimitHoldMs ?? DEFAULT_MAX_HOLD_MS);
    onDemand.retain(new Set(nextFullPlan.map((p) => holdKey(p.target, p.keyAlias))));
    config = next;
    plan = nextPlan;
    planIds = new Set(nextPlan.map((p) => p.id));
    fullPlan = nextFullPlan;
    agents = new Map(next.targets.map((t) => [t.name, newDispatcher(t, next.concurrency)]));
    // In one pass: a filter per target is targets x probes.
    const byTarget = new Map<string, ProbeSpec[]>();
    for (const p of nextPlan) {
      const list = byTarget.get(p.target) ?? [];
      if (list.push(p) === 1) byTarget.set(p.target, list);
    }
    scheduler = createScheduler(
      next.targets.map((target) => ({ target, probes: byTarget.get(target.name) ?? [] })),
      {
        concurrency: next.concurrency,
        metrics: service,
        logger: deps.logger,
        runProbe: runAndRecord,
        inMaintenance: (t) => openWindow(t, now()) !== undefined,
        oneAtATime: (p) => politeness.throttled(p.target, p.keyAlias),
        // Failures before a window say nothing about after it: the outage page then needs a
        // fresh run of failures, rather than firing on the old one the moment the window closes.
        onPaused: (t) => probeMetrics.endStreaks(t.name, 'service'),
        ...(deps.random ? { random: deps.random } : {}),
      },
    );
    if (started) scheduler.start();
    service.reloadSuccessful.set(1);
    service.reloadTimestamp.set(now() / 1000);
    return nextPlan.length;
  }

  /**
   * The new config takes over the schedule at once; a round under way finishes on the config it
   * started with (a reload never costs a round's results), then its connections close. Its
   * probes that the new config dropped record nothing.
   */
  function apply(next: MonitorConfig): number {
    const old = scheduler;
    const oldAgents = agents;
    const count = install(next);
    if (old) {
      retiring.add(old);
      void old.retire().then(async () => {
        retiring.delete(old);
        if (!deps.dispatcherFor) await Promise.allSettled([...oldAgents.values()].map((a) => a.close()));
      });
    }
    return count;
  }

  function probeNow(spec: ProbeSpec): Promise<ProbeResult> {
    const target = config.targets.find((t) => t.name === spec.target);
    if (!target) return Promise.reject(new Error(`no target named "${spec.target}"`));
    return runProbe(spec, target, probeDeps(target));
  }

  /** Reads the next config (a throwing reader is a refusal, not a crash) and applies it. */
  async function reloadNow(next: ConfigResult | undefined): Promise<ReloadResult> {
    const result = next ?? readNext();
    if (!result.ok) {
      service.reloadSuccessful.set(0);
      deps.logger.error({ issues: result.issues }, 'config reload failed; keeping the running config');
      return result;
    }
    const probes = apply(result.config);
    const envKeysKept = envKeyAliases(result.config);
    deps.logger.info({ probes }, 'config reloaded');
    if (envKeysKept.length > 0) {
      deps.logger.warn(
        { keys: envKeysKept },
        'reload reread every secretFile key, but keys given as ${ENV} keep the values this process started with (a running process cannot see a changed environment): restart to pick up rotated ${ENV} keys, or move them to secretFile',
      );
    }
    return { ok: true, probes, envKeysKept };
  }

  function readNext(): ConfigResult {
    if (!deps.load) return { ok: false, issues: [{ path: '', message: 'no config source to reload from' }] };
    try {
      return deps.load();
    } catch (error) {
      // The reader's own message only: a stack is no config problem, and could quote the file.
      const why = error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : 'unknown error';
      return { ok: false, issues: [{ path: '', message: `cannot read the config (${why})` }] };
    }
  }

  install(initial);

  return {
    registry: registry as Registry,
    get history(): History {
      return history;
    },
    shard,
    async start(): Promise<void> {
      started = true;
      scheduler?.start();
      deps.logger.info({ targets: config.targets.length, probes: plan.length, shard: formatShard(shard) }, 'monitor started');
      if (deps.roundOnStart) void scheduler?.runOnce();
    },
    async stop(): Promise<void> {
      started = false;
      // A reload under way would otherwise install its scheduler after this stop.
      await reloads;
      await Promise.all([scheduler, ...retiring].map((s) => s?.stop()));
      if (!deps.dispatcherFor) await Promise.allSettled([...agents.values()].map((a) => a.close()));
    },
    reload(next?: ConfigResult): Promise<ReloadResult> {
      // One at a time, each after the previous is in place. Reloads from the config source that
      // arrive while one waits its turn join it (a burst of SIGHUPs or POSTs reads the file once);
      // one asked for after it started reads the file again, which may carry a newer edit.
      if (next === undefined && queuedRead) return queuedRead;
      const run = reloads.then(() => {
        if (next === undefined) queuedRead = undefined;
        return reloadNow(next);
      });
      if (next === undefined) queuedRead = run;
      reloads = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
    /** One unspread round of every target, awaited: tests drive ticks with it. */
    async runOnce(): Promise<void> {
      await scheduler?.runOnce();
    },
    async tick(target: string, options?: { spread?: boolean }): Promise<void> {
      await scheduler?.tick(target, options);
    },
    config: (): MonitorConfig => config,
    /** This shard's probes. */
    plan: (): readonly ProbeSpec[] => plan,
    ready: (): boolean => started,
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
    allProbes: (): readonly ProbeSpec[] => fullPlan,
  };
}
