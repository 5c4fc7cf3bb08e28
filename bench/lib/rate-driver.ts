/**
 * Fires a callback at a steady rate (R per second) until stopped: the "Prometheus scraping
 * /probe" side of a blackbox_exporter comparison. Each firing is due at start + i/R; late
 * firings catch up in the next slice rather than being dropped, so the count matches the
 * elapsed time. In-flight calls are awaited on stop.
 */

export interface RateDriver {
  readonly fired: number;
  readonly succeeded: number;
  readonly failed: number;
  stop(): Promise<void>;
}

/** How many firings are due after `elapsedMs` at `perSecond`, counting the one at t = 0. */
export function dueCount(elapsedMs: number, perSecond: number): number {
  if (elapsedMs < 0) return 0;
  return Math.floor((elapsedMs * perSecond) / 1000) + 1;
}

const SLICE_MS = 20;

export function startRateDriver(perSecond: number, fire: () => Promise<boolean>, now: () => number = () => performance.now()): RateDriver {
  if (!(perSecond > 0)) throw new Error(`rate must be above 0 per second, got ${perSecond}`);
  const started = now();
  let fired = 0;
  let succeeded = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const launch = (): void => {
    fired += 1;
    const p = fire()
      .then((ok) => (ok ? (succeeded += 1) : (failed += 1)))
      .catch(() => (failed += 1))
      .then(() => void inFlight.delete(p));
    inFlight.add(p);
  };
  const timer = setInterval(() => {
    const due = dueCount(now() - started, perSecond);
    while (fired < due) launch();
  }, SLICE_MS);
  launch();
  return {
    get fired() {
      return fired;
    },
    get succeeded() {
      return succeeded;
    },
    get failed() {
      return failed;
    },
    async stop() {
      clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}
