/**
 * The client-wide rate-limit gate: a 429 that says how long to wait pauses every queued and
 * new call of the client until then, instead of each call learning it with its own 429.
 */
import type { RetryHint } from './retry-hints.js';

export interface GatePause {
  /** Wall-clock milliseconds when calls may go again. */
  readonly until: number;
  readonly hint: RetryHint;
}

export interface RateLimitGate {
  /** Extends the pause; a shorter hint never shortens a longer one already in force. */
  pause(until: number, hint: RetryHint): void;
  /** The pause in force at `now`, if any. */
  current(now: number): GatePause | undefined;
}

export function createRateLimitGate(): RateLimitGate {
  let paused: GatePause | undefined;
  return {
    pause(until, hint) {
      if (!paused || until > paused.until) paused = { until, hint };
    },
    current(now) {
      if (paused && paused.until <= now) paused = undefined;
      return paused;
    },
  };
}
