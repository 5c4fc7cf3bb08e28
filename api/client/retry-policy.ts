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

const unit = (random: number): number => (Number.isFinite(random) && random >= 0 ? Math.min(random, 0.999_999) : 0);

/** Exponential with "equal jitter" (half fixed, half random); a 429 without a hint backs off harder. */
function backoffMs(retry: number, rateLimited: boolean, random: number): number {
  const [baseMs, capMs] = rateLimited ? [1000, 16_000] : [250, 4_000];
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(Math.max(retry - 1, 0), 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * unit(random));
}

export function decideRetry(input: RetryInput): RetryDecision {
  const { outcome, now, deadline } = input;
  const retryable = outcome.kind === 'status' ? RETRYABLE_STATUSES.includes(outcome.status) : isRetryableFailure(outcome.failure);
  if (!retryable) return { retry: false, reason: 'not_retryable' };
  const hint = outcome.kind === 'status' ? parseRetryHint(outcome.headers, now) : undefined;
  if (input.attempt > input.maxRetries) return { retry: false, reason: 'retries_exhausted', hint };
  const latestStart = deadline - Math.max(0, input.minAttemptWindowMs);
  if (hint) {
    if (hint.delayMs > input.maxRetryAfterMs) return { retry: false, reason: 'hint_above_max', hint };
    if (now + hint.delayMs > latestStart) return { retry: false, reason: 'hint_past_deadline', hint };
    // Never earlier than asked, a little later (10 %, 50 ms to 1 s) so clients do not come back together.
    const jitter = Math.floor(Math.min(1000, Math.max(50, hint.delayMs * 0.1)) * unit(input.random));
    const delayMs = Math.min(hint.delayMs + jitter, latestStart - now);
    return { retry: true, delayMs, basis: 'hint', hint };
  }
  const delayMs = backoffMs(input.attempt, outcome.kind === 'status' && outcome.status === 429, input.random);
  // A backoff squeezed to fit would hammer the server in the last milliseconds: stop instead.
  if (now + delayMs > latestStart) return { retry: false, reason: 'deadline' };
  return { retry: true, delayMs, basis: 'backoff' };
}

/**
 * The client-wide 429 gate: a hint pauses every queued and new call of the client, not only the
 * one that got it, for an hour at most (a `Retry-After: 1e15` from a broken proxy must not silence
 * the client for the rest of the process); a shorter hint never shortens a longer pause.
 */
export const MAX_GATE_PAUSE_MS = 60 * 60 * 1000;

export interface RateLimitGate {
  pause(now: number, hint: RetryHint): void;
  /** The pause in force at `now`: until when, in wall-clock ms. */
  current(now: number): { readonly until: number } | undefined;
}

export function createRateLimitGate(): RateLimitGate {
  let until = 0;
  return {
    pause: (now, hint) => void (until = Math.max(until, now + Math.min(hint.delayMs, MAX_GATE_PAUSE_MS))),
    current: (now) => (until > now ? { until } : undefined),
  };
}
