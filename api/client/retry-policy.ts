/**
 * Whether to try again, and after how long. Pure: the outcome of one attempt, the clock
 * reading, a random number and the deadline in; a decision out. The I/O loop only obeys it.
 */
import { RETRYABLE_STATUSES } from '../contract/index.js';
import { type RetryHint, parseRetryHint } from './retry-hints.js';
import { type TransportFailure, isRetryableFailure } from './attempt.js';

export type RetryOutcome =
  | { readonly kind: 'status'; readonly status: number; readonly headers: Readonly<Record<string, string | undefined>> }
  | { readonly kind: 'failure'; readonly failure: TransportFailure };

export type StopReason =
  | 'not_retryable'
  | 'retries_exhausted'
  /** The server asked for a longer wait than `maxRetryAfterMs`: reschedule instead. */
  | 'hint_above_max'
  /** The server's wait ends after the call's total deadline. */
  | 'hint_past_deadline'
  /** No time left for a useful attempt after any backoff. */
  | 'deadline';

export type RetryDecision =
  | { readonly retry: true; readonly delayMs: number; readonly basis: 'hint' | 'backoff'; readonly hint?: RetryHint | undefined }
  | { readonly retry: false; readonly reason: StopReason; readonly hint?: RetryHint | undefined };

export interface RetryInput {
  /** Attempts made so far, including the one that just failed (1-based). */
  readonly attempt: number;
  readonly maxRetries: number;
  readonly outcome: RetryOutcome;
  /** Wall-clock milliseconds (epoch); HTTP-date hints are relative to it. */
  readonly now: number;
  /** A number in [0, 1); anything else is clamped. */
  readonly random: number;
  /** Wall-clock milliseconds by which the whole call must end. */
  readonly deadline: number;
  readonly maxRetryAfterMs: number;
  /** An attempt with less time than this left is not worth starting. */
  readonly minAttemptWindowMs: number;
}

interface Backoff {
  readonly baseMs: number;
  readonly capMs: number;
}
/** 429 without a hint backs off harder: the server is protecting itself, not broken. */
export const BACKOFF_RATE_LIMITED: Backoff = { baseMs: 1000, capMs: 16_000 };
export const BACKOFF_DEFAULT: Backoff = { baseMs: 250, capMs: 4_000 };
/** Jitter on top of a hint: never earlier than asked, a little later to spread clients. */
const HINT_JITTER_MIN_MS = 50;
const HINT_JITTER_MAX_MS = 1_000;

function unit(random: number): number {
  if (!Number.isFinite(random) || random < 0) return 0;
  return random >= 1 ? 0.999_999 : random;
}

function isRetryable(outcome: RetryOutcome): boolean {
  return outcome.kind === 'status' ? RETRYABLE_STATUSES.includes(outcome.status) : isRetryableFailure(outcome.failure);
}

/** Exponential with "equal jitter": half fixed, half random, so delays never collapse to 0. */
export function backoffMs(retryNumber: number, backoff: Backoff, random: number): number {
  const exponent = Math.min(Math.max(retryNumber - 1, 0), 30);
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** exponent);
  return Math.round(ceiling / 2 + (ceiling / 2) * unit(random));
}

function hintJitterMs(hintMs: number, random: number): number {
  const span = Math.min(HINT_JITTER_MAX_MS, Math.max(HINT_JITTER_MIN_MS, hintMs * 0.1));
  return Math.floor(span * unit(random));
}

export function decideRetry(input: RetryInput): RetryDecision {
  const { outcome, now, deadline } = input;
  if (!isRetryable(outcome)) return { retry: false, reason: 'not_retryable' };
  const hint = outcome.kind === 'status' ? parseRetryHint(outcome.headers, now) : undefined;
  if (input.attempt > input.maxRetries) return { retry: false, reason: 'retries_exhausted', hint };
  const latestStart = deadline - Math.max(0, input.minAttemptWindowMs);
  if (hint) {
    if (hint.delayMs > input.maxRetryAfterMs) return { retry: false, reason: 'hint_above_max', hint };
    if (now + hint.delayMs > latestStart) return { retry: false, reason: 'hint_past_deadline', hint };
    const delayMs = Math.min(hint.delayMs + hintJitterMs(hint.delayMs, input.random), latestStart - now);
    return { retry: true, delayMs, basis: 'hint', hint };
  }
  const rateLimited = outcome.kind === 'status' && outcome.status === 429;
  const delayMs = backoffMs(input.attempt, rateLimited ? BACKOFF_RATE_LIMITED : BACKOFF_DEFAULT, input.random);
  // A backoff squeezed to fit would hammer the server in the last milliseconds: stop instead.
  if (now + delayMs > latestStart) return { retry: false, reason: 'deadline' };
  return { retry: true, delayMs, basis: 'backoff' };
}

/*
 * The client-wide rate-limit gate: a 429 that says how long to wait pauses every queued and new
 * call of the client until then, instead of each call learning it with its own 429.
 */

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
