/**
 * How the engine spends requests and time on a customer's key, which may be the one their
 * integration is using right now: a wait only when the server asks for a short one, a stop
 * (never a second try) when it asks for longer, never past the request budget. Pure: `pacedCall`
 * yields "send" and "wait" steps and is handed each answer; `send.ts` carries them out.
 */
import { hostUnreachable } from '../api/checklist/index.js';
import { joinUrl } from '../api/contract/index.js';
import { RATE_LIMIT_POLICY } from '../api/client/index.js';
import type { AttemptResult, RetryHint } from '../api/client/single-attempt.js';
import { answerKind, parseRetryHint } from '../api/client/single-attempt.js';
import type { Call, CallRecord } from './observations.js';

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

/** What to do next: send a call, or wait (a 429's hint) before sending it again. */
export type Step = { readonly kind: 'send'; readonly call: Call } | { readonly kind: 'wait'; readonly ms: number; readonly check: string };

/** Handed back after a `send` step, with when it arrived (an HTTP-date Retry-After is relative to it); nothing after a `wait`. */
export interface Answered {
  readonly result: AttemptResult;
  readonly atMs: number;
}

export type Paced<T> = Generator<Step, T, Answered | undefined>;

/** What the requests of one run spent, against its budget. */
export interface Traffic {
  readonly requestBudget: number;
  readonly requestsSent: number;
  readonly maxWaitMs: number;
  readonly waitedMs: number;
  readonly waits: readonly { readonly check: string; readonly ms: number; readonly source: RetryHint['source'] }[];
  readonly stopped: StopReason | undefined;
  readonly notRun: readonly string[];
}

/** What a run has spent and seen so far; only `pacedCall` changes it. */
export interface PacedRun {
  readonly baseUrl: string;
  readonly limits: PacingLimits;
  readonly records: Map<string, CallRecord>;
  readonly waits: Traffic['waits'][number][];
  requests: number;
  waitedMs: number;
  stopped: StopReason | undefined;
  previousNoAnswer: string | undefined;
}

export function pacedRun(baseUrl: string, limits: PacingLimits): PacedRun {
  return { baseUrl, limits, records: new Map(), waits: [], requests: 0, waitedMs: 0, stopped: undefined, previousNoAnswer: undefined };
}

export function keep(run: PacedRun, record: CallRecord): CallRecord {
  run.records.set(record.call.id, record);
  return record;
}

/** One call: sent unless the run has stopped, retried once after a wait the server asked for. */
export function* pacedCall(run: PacedRun, c: Call): Paced<CallRecord> {
  const url = joinUrl(run.baseUrl, c.path);
  let attempts = 0;
  for (;;) {
    run.stopped ??= budgetLeft(run, run.limits);
    if (run.stopped) return keep(run, { call: c, url, result: undefined, attempts });
    const answered = yield { kind: 'send', call: c };
    if (!answered) throw new Error(`no answer handed back for ${c.id}`);
    run.requests += 1;
    attempts += 1;
    const hint = retryHintOf(answered.result, answered.atMs);
    const { previousNoAnswer, requests, waitedMs, limits } = run;
    const spent = { requests, waitedMs };
    const decision = afterAnswer({ check: c.id, result: answered.result, hint, retried: attempts > 1, previousNoAnswer, spent, limits });
    run.previousNoAnswer = answered.result.kind === 'failure' ? c.id : undefined;
    if (decision.kind === 'retry') {
      yield { kind: 'wait', ms: decision.waitMs, check: c.id };
      run.waitedMs += decision.waitMs;
      run.waits.push({ check: c.id, ms: decision.waitMs, source: decision.hint.source });
      continue;
    }
    if (decision.kind === 'stop') run.stopped = decision.reason;
    return keep(run, { call: c, url, result: answered.result, attempts, ...(hint ? { retryHint: hint } : {}) });
  }
}

export function trafficOf(run: PacedRun): Traffic {
  return {
    requestBudget: run.limits.budget,
    requestsSent: run.requests,
    maxWaitMs: run.limits.maxWaitMs,
    waitedMs: run.waitedMs,
    waits: run.waits,
    stopped: run.stopped,
    notRun: [...run.records.values()].filter((r) => r.result === undefined).map((r) => r.call.id),
  };
}
