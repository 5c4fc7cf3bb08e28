/**
 * Runs each target's probes on its cron schedule (node-cron 4, UTC, `noOverlap`): a tick spreads
 * the probes over the interval with jitter and runs them through one bounded pool shared by all
 * targets. A read that fails on the service's side is rechecked `recheckAfter` later, before the
 * next tick is due. `tick()` runs one target's round now, for tests and the first round after start.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import { CRON_TIMEZONE } from '../config/cron.js';
import type { MonitorTarget } from '../config/types.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { ProbeSpec } from '../probe/spec.js';

type TargetRound = Readonly<{ target: MonitorTarget; probes: readonly ProbeSpec[] }>;

interface SchedulerDeps {
  readonly concurrency: number;
  readonly metrics: ServiceMetrics;
  readonly logger: Logger;
  /**
   * Runs and records one probe (`recheck`: a recheck, not a scheduled probe); must not throw.
   * True: recheck it (a read failing on the service's side, short of down).
   */
  readonly runProbe: (spec: ProbeSpec, target: MonitorTarget, signal: AbortSignal, recheck: boolean) => Promise<boolean | void>;
  readonly inMaintenance: (target: MonitorTarget) => boolean;
  /** True while the probe's key is throttled: then its probes of a round go one after another. */
  readonly oneAtATime?: (spec: ProbeSpec) => boolean;
  /** A recheck of this probe id that a schedule a reload replaced still has under way. */
  readonly retiringRecheck?: (id: string) => Promise<void> | undefined;
  /** Called for each tick skipped for a maintenance window. */
  readonly onPaused?: (target: MonitorTarget) => void;
  readonly random?: () => number;
  readonly now?: () => number;
}

export type Scheduler = ReturnType<typeof createScheduler>;

/**
 * Probes are spread evenly with jitter over 80 % of the part of the interval that still leaves
 * room for a full timeout, so a tick ends before the next one is due and 1000 keys do not hit
 * the API in the same millisecond.
 */
export function spreadWindowMs(intervalMs: number, timeoutMs: number): number {
  return Math.max(0, (intervalMs - timeoutMs) * 0.8);
}

/**
 * The shortest slot probes start in. Probes of one slot start together because each start at
 * its own instant wakes the event loop, and on a VM a wakeup costs more CPU than the request
 * it sends: at 50 probes/s, starting every probe alone cost 67 ms of CPU per second, starting
 * them at once 32 ms (measured on the 2-core machine, `repairmon serve`, same config).
 */
export const SPREAD_SLOT_MS = 100;

/** Offsets in ms for `count` probes: at most one slot per SPREAD_SLOT_MS, each at a jittered point of its span; probe i starts with slot floor(i * slots / count). */
export function spreadOffsets(count: number, windowMs: number, random: () => number): number[] {
  if (count === 0 || windowMs <= 0) return Array.from({ length: count }, () => 0);
  const slots = Math.max(1, Math.min(count, Math.floor(windowMs / SPREAD_SLOT_MS)));
  const span = windowMs / slots;
  const starts = Array.from({ length: slots }, (_, s) => Math.floor((s + Math.min(Math.max(random(), 0), 0.999)) * span));
  return Array.from({ length: count }, (_, i) => starts[Math.floor((i * slots) / count)] ?? 0);
}

/** A bounded pool: at most `size` tasks run at once, the rest wait in arrival order. */
export function createPool(size: number, onChange: (active: number, waiting: number) => void = () => undefined) {
  let active = 0;
  const queue: Array<() => void> = [];
  const changed = (): void => onChange(active, queue.length);
  return {
    /** Tasks waiting for a slot now. */
    waiting: (): number => queue.length,
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < size) active += 1;
      else
        await new Promise<void>((resolve) => {
          queue.push(resolve);
          changed();
        });
      changed();
      try {
        return await task();
      } finally {
        active -= 1;
        const next = queue.shift();
        if (next) {
          active += 1;
          next();
        }
        changed();
      }
    },
  };
}

type RoundContext = Readonly<{
  deps: SchedulerDeps;
  pool: ReturnType<typeof createPool>;
  signal: AbortSignal;
  now: () => number;
  random: () => number;
  /** Probe id -> its recheck under way (waiting or running). */
  rechecks: Map<string, Promise<void>>;
  /** Probe ids whose recheck has been sent and not yet answered: what a reload's schedule waits for. */
  sending: Set<string>;
  /** The waits of rechecks not yet sent, each a cancel: `retire` calls them all. */
  waits: Set<() => void>;
  retired: { value: boolean };
}>;

/**
 * Resolves true after `ms`, or false once cancelled. A timer in a set, not a sleep on an abort
 * signal: thousands of pending rechecks (an outage at 5 000 keys) would make every listener
 * added to or removed from one signal walk the whole list.
 */
function cancellableWait(ms: number, waits: Set<() => void>): Promise<boolean> {
  return new Promise((resolve) => {
    const cancel = (): void => {
      clearTimeout(timer);
      waits.delete(cancel);
      resolve(false);
    };
    const timer = setTimeout(() => {
      waits.delete(cancel);
      resolve(true);
    }, ms);
    waits.add(cancel);
  });
}

/**
 * Probes a failing read again `recheckAfterMs` later, and again while it keeps failing short of
 * its threshold, as long as the recheck starts before the next tick is due (`nextRoundAt`): an
 * outage is confirmed, and pages, within seconds rather than a whole interval later (Uptime
 * Kuma's retry interval). It runs beside its round; the next round's probe of the same id waits
 * for it, never running beside it. In a maintenance window, with the pool a whole batch behind,
 * or when the next tick comes before a slot does, the read is left to that tick.
 */
function recheck(spec: ProbeSpec, target: MonitorTarget, nextRoundAt: number, ctx: RoundContext): void {
  const waitMs = target.recheckAfterMs;
  if (waitMs <= 0 || ctx.rechecks.has(spec.id) || ctx.retired.value) return;
  const run = async (): Promise<void> => {
    let again = true;
    while (again && !ctx.retired.value && ctx.now() + waitMs < nextRoundAt) {
      if (!(await cancellableWait(waitMs, ctx.waits))) return;
      // A window opened, or the pool is a whole batch behind its schedule: the next tick decides.
      if (ctx.deps.inMaintenance(target) || ctx.pool.waiting() > ctx.deps.concurrency) return;
      // Dropped if the next tick came first while it waited for a slot.
      again = await ctx.pool.run(async () => {
        if (ctx.signal.aborted || ctx.retired.value || ctx.now() >= nextRoundAt) return false;
        ctx.deps.metrics.rechecks.inc({ target: target.name });
        ctx.sending.add(spec.id);
        try {
          return (await ctx.deps.runProbe(spec, target, ctx.signal, true)) === true;
        } finally {
          ctx.sending.delete(spec.id);
        }
      });
    }
  };
  ctx.rechecks.set(
    spec.id,
    run()
      .catch(() => undefined)
      .finally(() => ctx.rechecks.delete(spec.id)),
  );
}

/**
 * `spread`: probes spread over the interval (a cron tick's) or all at once; `recheck`: failing
 * reads are rechecked (a cron tick's round, the first after start), not in a round run by hand.
 */
type RoundOptions = Readonly<{ spread: boolean; recheck: boolean }>;

async function runRound(r: TargetRound, ctx: RoundContext, { spread, recheck: rechecked }: RoundOptions): Promise<void> {
  const { metrics } = ctx.deps;
  const target = r.target.name;
  metrics.ticks.inc({ target });
  const paused = ctx.deps.inMaintenance(r.target);
  metrics.maintenanceActive.set({ target }, paused ? 1 : 0);
  if (paused) {
    metrics.ticksSkipped.inc({ target, reason: 'maintenance' });
    ctx.deps.onPaused?.(r.target);
    return;
  }
  const endTimer = metrics.tickDuration.startTimer({ target });
  const started = ctx.now();
  const offsets = spread ? spreadOffsets(r.probes.length, spreadWindowMs(r.target.intervalMs, r.target.timeoutMs), ctx.random) : [];
  // Per key, everything of this round it has started: a throttled key's next probe waits for it,
  // so that probe sees the hold a 429 just set instead of leaving in the same millisecond.
  const startedOfKey = new Map<string, Promise<unknown>>();
  // One timer per slot, shared by its probes: a timer per probe put an abort listener per probe on
  // the stop signal, and every add and remove walks that list (at 1 000 keys, 7 % of a tick's CPU).
  const slots = new Map<number, Promise<unknown>>();
  const slot = (offset: number): Promise<unknown> => {
    let wait = slots.get(offset);
    if (!wait) slots.set(offset, (wait = sleep(offset, undefined, { signal: ctx.signal }).catch(() => undefined)));
    return wait;
  };
  await Promise.all(
    r.probes.map(async (spec, i) => {
      const offset = offsets[i] ?? 0;
      if (offset > 0) await slot(offset);
      if (ctx.signal.aborted) return;
      const before = startedOfKey.get(spec.keyAlias);
      const mine = (async () => {
        if (before && ctx.deps.oneAtATime?.(spec)) await before;
        // Only a read under recheck waits (no await per probe otherwise: this runs for every probe),
        // its recheck sent by this schedule or by the one a reload just replaced.
        const pending = ctx.rechecks.get(spec.id) ?? ctx.deps.retiringRecheck?.(spec.id);
        if (pending) await pending;
        const planned = started + offset;
        const again = await ctx.pool.run(async () => {
          metrics.scheduleDelay.observe({ target }, Math.max(0, ctx.now() - planned) / 1000);
          return !ctx.signal.aborted && (await ctx.deps.runProbe(spec, r.target, ctx.signal, false)) === true;
        });
        if (again && rechecked) recheck(spec, r.target, started + r.target.intervalMs, ctx);
      })();
      startedOfKey.set(spec.keyAlias, Promise.all([before, mine]));
      await mine;
    }),
  );
  endTimer();
}

function cronTask(r: TargetRound, deps: SchedulerDeps, onTick: () => Promise<void>): ScheduledTask {
  const name = r.target.name;
  const task = cron.createTask(r.target.schedule, onTick, {
    timezone: CRON_TIMEZONE,
    noOverlap: true,
    name: `repairmon:${name}`,
    logger: {
      info: (m) => deps.logger.debug({ target: name }, m),
      warn: (m) => deps.logger.warn({ target: name }, m),
      error: (m) => deps.logger.error({ target: name }, String(m)),
      debug: (m) => deps.logger.debug({ target: name }, String(m)),
    },
  });
  // `missed`: node-cron woke up too late for a tick (a blocked event loop) and skipped it; the
  // listener also keeps node-cron from logging a warning per missed tick.
  for (const reason of ['overlap', 'missed'] as const)
    task.on(`execution:${reason}`, () => deps.metrics.ticksSkipped.inc({ target: name, reason }));
  return task;
}

export function createScheduler(rounds: readonly TargetRound[], deps: SchedulerDeps) {
  const stopping = new AbortController();
  // Every waiting and in-flight probe listens on this one signal: thousands, by design.
  setMaxListeners(0, stopping.signal);
  const pool = createPool(deps.concurrency, (active, waiting) => {
    deps.metrics.inFlight.set(active);
    deps.metrics.queued.set(waiting);
  });
  const ctx: RoundContext = {
    deps,
    pool,
    signal: stopping.signal,
    now: deps.now ?? (() => performance.now()),
    random: deps.random ?? Math.random,
    rechecks: new Map(),
    sending: new Set(),
    waits: new Set(),
    retired: { value: false },
  };
  const tasks: ScheduledTask[] = [];
  const running = new Set<Promise<void>>();
  const byName = new Map(rounds.map((r) => [r.target.name, r]));
  for (const r of rounds) deps.metrics.probesConfigured.set({ target: r.target.name }, r.probes.length);

  async function retire(): Promise<void> {
    // A recheck not yet sent is dropped: the next schedule (a reload's) probes anew.
    ctx.retired.value = true;
    for (const cancel of [...ctx.waits]) cancel();
    await Promise.all(tasks.map((t) => t.destroy()));
    await Promise.allSettled([...running, ...ctx.rechecks.values()]);
  }

  function track(r: TargetRound, options: RoundOptions): Promise<void> {
    const p = runRound(r, ctx, options).finally(() => running.delete(p));
    running.add(p);
    return p;
  }

  return {
    start(): void {
      for (const r of rounds) {
        const task = cronTask(r, deps, () => track(r, { spread: true, recheck: true }));
        void task.start();
        tasks.push(task);
      }
    },
    /** Runs one round of a target now; `spread: false` starts every probe at once. */
    tick(targetName: string, options: { spread?: boolean } = {}): Promise<void> {
      const r = byName.get(targetName);
      if (!r) return Promise.reject(new Error(`no target named "${targetName}"`));
      return track(r, { spread: options.spread ?? false, recheck: false });
    },
    /** One round of every target, unspread; `recheck`: as a scheduled one (the first round after start). */
    async runOnce(options: { recheck?: boolean } = {}): Promise<void> {
      await Promise.all(rounds.map((r) => track(r, { spread: false, recheck: options.recheck ?? false })));
    },
    /** No more ticks; resolves once the rounds under way have finished (a reload's old schedule). */
    retire,
    /**
     * This probe's recheck, if one is sent and not yet answered: the schedule replacing this one
     * waits for it. One still waiting for its time or a slot is dropped by `retire`, not waited for.
     */
    recheckOf: (id: string): Promise<void> | undefined => (ctx.sending.has(id) ? ctx.rechecks.get(id) : undefined),
    /** No more ticks, and the rounds under way are aborted (shutdown). */
    async stop(): Promise<void> {
      stopping.abort(new Error('scheduler stopped'));
      await retire();
    },
  };
}
