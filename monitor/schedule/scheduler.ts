/**
 * Runs each target's probes on its cron schedule (node-cron 4, UTC, `noOverlap`): a tick spreads
 * the probes over the interval with jitter and runs them through one bounded pool shared by all
 * targets. `tick()` runs one target's round now, for tests and the first round after start.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import { CRON_TIMEZONE } from '../config/cron.js';
import type { MonitorTarget } from '../config/types.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { ProbeSpec } from '../probe/spec.js';
import { createPool } from './pool.js';
import { spreadOffsets, spreadWindowMs } from './spread.js';

export interface TargetRound {
  readonly target: MonitorTarget;
  readonly probes: readonly ProbeSpec[];
}

export interface SchedulerDeps {
  readonly concurrency: number;
  readonly metrics: ServiceMetrics;
  readonly logger: Logger;
  /** Runs and records one probe; must not throw. */
  readonly runProbe: (spec: ProbeSpec, target: MonitorTarget, signal: AbortSignal) => Promise<void>;
  readonly inMaintenance: (target: MonitorTarget) => boolean;
  readonly random?: () => number;
  readonly now?: () => number;
}

export interface Scheduler {
  start(): void;
  /** Runs one round of a target now; `spread: false` starts every probe at once. */
  tick(targetName: string, options?: { spread?: boolean }): Promise<void>;
  /** One round of every target, unspread. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

export function createScheduler(rounds: readonly TargetRound[], deps: SchedulerDeps): Scheduler {
  const random = deps.random ?? Math.random;
  const now = deps.now ?? (() => performance.now());
  const stopping = new AbortController();
  // Every waiting and in-flight probe listens on this one signal: thousands, by design.
  setMaxListeners(0, stopping.signal);
  const pool = createPool(deps.concurrency, (active, waiting) => {
    deps.metrics.inFlight.set(active);
    deps.metrics.queued.set(waiting);
  });
  const tasks: ScheduledTask[] = [];
  const running = new Set<Promise<void>>();
  const byName = new Map(rounds.map((r) => [r.target.name, r]));
  for (const r of rounds) deps.metrics.probesConfigured.set({ target: r.target.name }, r.probes.length);

  async function round(r: TargetRound, spread: boolean): Promise<void> {
    const target = r.target.name;
    deps.metrics.ticks.inc({ target });
    const paused = deps.inMaintenance(r.target);
    deps.metrics.maintenanceActive.set({ target }, paused ? 1 : 0);
    if (paused) {
      deps.metrics.ticksSkipped.inc({ target, reason: 'maintenance' });
      return;
    }
    const endTimer = deps.metrics.tickDuration.startTimer({ target });
    const started = now();
    const offsets = spread ? spreadOffsets(r.probes.length, spreadWindowMs(r.target.intervalMs, r.target.timeoutMs), random) : [];
    await Promise.all(
      r.probes.map(async (spec, i) => {
        const offset = offsets[i] ?? 0;
        if (offset > 0) await sleep(offset, undefined, { signal: stopping.signal }).catch(() => undefined);
        if (stopping.signal.aborted) return;
        const planned = started + offset;
        await pool.run(async () => {
          deps.metrics.scheduleDelay.observe({ target }, Math.max(0, now() - planned) / 1000);
          if (!stopping.signal.aborted) await deps.runProbe(spec, r.target, stopping.signal);
        });
      }),
    );
    endTimer();
  }

  function track(p: Promise<void>): Promise<void> {
    running.add(p);
    return p.finally(() => running.delete(p));
  }

  return {
    start() {
      for (const r of rounds) {
        const task = cron.createTask(r.target.schedule, () => track(round(r, true)), {
          timezone: CRON_TIMEZONE,
          noOverlap: true,
          name: `repairmon:${r.target.name}`,
          logger: {
            info: (m) => deps.logger.debug({ target: r.target.name }, m),
            warn: (m) => deps.logger.warn({ target: r.target.name }, m),
            error: (m) => deps.logger.error({ target: r.target.name }, String(m)),
            debug: (m) => deps.logger.debug({ target: r.target.name }, String(m)),
          },
        });
        task.on('execution:overlap', () => {
          deps.metrics.ticksSkipped.inc({ target: r.target.name, reason: 'overlap' });
        });
        void task.start();
        tasks.push(task);
      }
    },
    tick(targetName, options = {}) {
      const r = byName.get(targetName);
      if (!r) return Promise.reject(new Error(`no target named "${targetName}"`));
      return track(round(r, options.spread ?? false));
    },
    async runOnce() {
      await Promise.all(rounds.map((r) => track(round(r, false))));
    },
    async stop() {
      stopping.abort(new Error('scheduler stopped'));
      await Promise.all(tasks.map((t) => t.destroy()));
      await Promise.allSettled([...running]);
    },
  };
}
