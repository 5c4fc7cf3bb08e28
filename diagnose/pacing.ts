/**
 * How the probe spends requests and time on a customer's key, which may be the one their
 * integration is using right now: a wait only when the server asks for a short one, a stop
 * (never a second try) when it asks for longer. Pure: the schedule carries the decisions out.
 */
import { hostUnreachable } from '../api/checklist/index.js';
import { type AttemptResult, RATE_LIMIT_POLICY, type RetryHint } from '../api/client/single-attempt.js';
import { answerKind, parseRetryHint } from '../api/client/single-attempt.js';

/** Requests per run, retries included: when it is spent, the lowest-priority calls (`/` last) are the ones not run. */
export const REQUEST_BUDGET = 10;

/** Seconds the probe may wait for the server's rate-limit hints, over the whole run (`--max-wait`). */
export const DEFAULT_MAX_WAIT_S = RATE_LIMIT_POLICY.probeMaxWaitMs / 1000;

export type PacingLimits = Readonly<Record<'budget' | 'maxWaitMs', number>>;
type Spent = Readonly<Record<'requests' | 'waitedMs', number>>;

/** Why a 429 ended the run rather than a wait (no hint: waiting a guess and asking again could only add load). */
export type RateLimitStop = 'no_hint' | 'too_long' | 'still_limited' | 'budget';

export type StopReason =
  /** /docs could not connect at all (refused, DNS, TLS): every other call would fail the same way. */
  | { readonly kind: 'host_unreachable'; readonly check: string }
  /** Two calls in a row got no answer (e.g. both timed out): the host hangs, not one path. */
  | { readonly kind: 'no_answer'; readonly checks: readonly [string, string] }
  | { readonly kind: 'rate_limited'; readonly check: string; readonly hint: RetryHint | undefined; readonly why: RateLimitStop }
  | { readonly kind: 'budget'; readonly limit: number };

export interface AnsweredCall {
  readonly check: string;
  readonly result: AttemptResult;
  readonly hint: RetryHint | undefined;
  /** This answer is already the one retry of the call. */
  readonly retried: boolean;
  readonly previousNoAnswer: string | undefined;
  readonly spent: Spent;
  readonly limits: PacingLimits;
}

/** A 429's hint in whichever header style the server used; `atMs` dates an HTTP-date Retry-After. */
export function retryHintOf(result: AttemptResult, atMs: number): RetryHint | undefined {
  if (result.kind !== 'response' || answerKind(result) !== 'rate_limited') return undefined;
  return parseRetryHint(result.headers, atMs);
}

/** Before each request: a run never sends more than its budget. */
export function budgetLeft(spent: Spent, limits: PacingLimits): StopReason | undefined {
  return spent.requests >= limits.budget ? { kind: 'budget', limit: limits.budget } : undefined;
}

export function afterAnswer(a: AnsweredCall) {
  const stop = (reason: StopReason) => ({ kind: 'stop' as const, reason });
  if (a.check === 'docs' && hostUnreachable(a.result)) return stop({ kind: 'host_unreachable', check: a.check });
  if (a.result.kind === 'failure' && a.previousNoAnswer !== undefined)
    return stop({ kind: 'no_answer', checks: [a.previousNoAnswer, a.check] });
  if (answerKind(a.result) !== 'rate_limited') return { kind: 'next' as const };
  const limited = (why: RateLimitStop) => stop({ kind: 'rate_limited', check: a.check, hint: a.hint, why });
  if (a.hint === undefined) return limited('no_hint');
  if (a.retried) return limited('still_limited');
  if (a.spent.waitedMs + a.hint.delayMs > a.limits.maxWaitMs) return limited('too_long');
  if (a.spent.requests >= a.limits.budget) return limited('budget');
  return { kind: 'retry' as const, waitMs: a.hint.delayMs, hint: a.hint };
}
