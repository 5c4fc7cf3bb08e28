/**
 * The client-wide rate-limit gate: a 429 that says how long to wait pauses every queued and
 * new call of the client until then, instead of each call learning it with its own 429.
 */
import type { RetryHint } from './retry-hints.js';

/**
 * The longest a single 429 can pause the client. A server (or a proxy in front of it) that
 * answers `Retry-After: 1e15` or a year-9999 date must not silence the client for the rest of
 * the process: after an hour, calls try again, and a new 429 sets a new pause.
 */
export const MAX_GATE_PAUSE_MS = 60 * 60 * 1000;

export interface GatePause {
  /** Wall-clock milliseconds when calls may go again. */
  readonly until: number;
  readonly hint: RetryHint;
}

export interface RateLimitGate {
  /**
   * Pauses until `now + hint.delayMs`, at most `MAX_GATE_PAUSE_MS` from now; a shorter hint never
   * shortens a longer pause already in force.
   */
  pause(now: number, hint: RetryHint): void;
  /** The pause in force at `now`, if any. */
  current(now: number): GatePause | undefined;
}

export function createRateLimitGate(): RateLimitGate {
  let paused: GatePause | undefined;
  return {
    pause(now, hint) {
      const until = now + Math.min(hint.delayMs, MAX_GATE_PAUSE_MS);
      if (!paused || until > paused.until) paused = { until, hint };
    },
    current(now) {
      if (paused && paused.until <= now) paused = undefined;
      return paused;
    },
  };
}
