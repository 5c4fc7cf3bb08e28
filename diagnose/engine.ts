/**
 * The inspection engine: a plan (the checklist's calls, `api/checklist`, and the tools' own) is a
 * generator of calls, each sent as one plain attempt, never past the run's request budget. A 429
 * whose hint fits the run's wait allowance is waited out and asked once more; any other 429 stops
 * the run, as does a host that cannot be reached or hangs. Pure: `drive` carries a plan out with
 * the sending passed in (`send.ts` on the network, tests from recorded answers).
 */
import type { ChecklistCall } from '../api/checklist/index.js';
import { type AttemptResult, type RetryHint, answerKind } from '../api/client/single-attempt.js';
import { parseRetryHint } from '../api/client/single-attempt.js';
import { joinUrl } from '../api/contract/index.js';

/** A planned GET; the checklist's shape, and a key made up so it cannot be valid may go instead of the user's. */
export interface Call extends ChecklistCall {
  readonly madeUpKey?: true;
}

export interface CallRecord {
  readonly call: Call;
  readonly url: string;
  /** Undefined when the run stopped before the call. */
  readonly result: AttemptResult | undefined;
  readonly attempts: number;
  readonly retryHint?: RetryHint | undefined;
}

export type Observations = ReadonlyMap<string, CallRecord>;

export const REQUEST_BUDGET = 10;

export type RateLimitStop = 'no_hint' | 'too_long' | 'still_limited' | 'budget';

export type StopReason =
  /** /docs could not connect: every other call would fail the same way. */
  | { readonly kind: 'host_unreachable'; readonly check: string }
  /** Two calls in a row got no answer: the host hangs, not one path. */
  | { readonly kind: 'no_answer'; readonly checks: readonly [string, string] }
  | {
      readonly kind: 'rate_limited';
      check: string;
      /** The limited call's path: the check id names the call, which a row may share (`key` reads scope:clients' call). */
      path?: string;
      hint: RetryHint | undefined;
      why: RateLimitStop;
    }
  | { readonly kind: 'budget'; readonly limit: number };

type Wait = { readonly check: string; readonly ms: number; readonly source: RetryHint['source'] };

export interface PacedRun {
  readonly baseUrl: string;
  readonly limits: Readonly<Record<'budget' | 'maxWaitMs', number>>;
  readonly records: Map<string, CallRecord>;
  readonly waits: Wait[];
  requests: number;
  waitedMs: number;
  stopped: StopReason | undefined;
  /** The last call, when it got no answer. */
  unanswered: string | undefined;
}

export function pacedRun(baseUrl: string, limits: PacedRun['limits']): PacedRun {
  const run = { baseUrl, limits, records: new Map(), waits: [], requests: 0, waitedMs: 0 };
  return { ...run, stopped: undefined, unanswered: undefined };
}

export type Step = { kind: 'send'; call: Call } | { kind: 'wait'; ms: number; check: string };
/** `atMs`: when it came (an HTTP-date Retry-After is relative to it). */
export type Answer = { readonly result: AttemptResult; readonly atMs: number };
export type Paced<T> = Generator<Step, T, Answer | undefined>;

export function retryHintOf(result: AttemptResult, atMs: number): RetryHint | undefined {
  return answerKind(result) === 'rate_limited' && result.kind === 'response' ? parseRetryHint(result.headers, atMs) : undefined;
}

/** After an answer `run` has counted: go on, wait and ask again, or stop the run. */
export function afterAnswer(
  run: Omit<PacedRun, 'records' | 'waits'>,
  check: string,
  answer: AttemptResult,
  hint: RetryHint | undefined,
  retried: boolean,
  path?: string,
) {
  const stop = (reason: StopReason) => ({ kind: 'stop' as const, reason });
  const failed = answer.kind === 'failure';
  if (check === 'docs' && failed && answer.failure.kind !== 'timeout') return stop({ kind: 'host_unreachable', check });
  if (failed && run.unanswered) return stop({ kind: 'no_answer', checks: [run.unanswered, check] });
  if (answerKind(answer) !== 'rate_limited') return { kind: 'next' as const };
  const limited = (why: RateLimitStop) => stop({ kind: 'rate_limited', check, ...(path !== undefined && { path }), hint, why });
  if (hint === undefined) return limited('no_hint');
  if (retried) return limited('still_limited');
  if (run.waitedMs + hint.delayMs > run.limits.maxWaitMs) return limited('too_long');
  if (run.requests >= run.limits.budget) return limited('budget');
  return { kind: 'retry' as const, hint };
}

/** One call: sent unless the run has stopped, asked once more after a wait the server named. */
export function* pacedCall(run: PacedRun, call: Call): Paced<CallRecord> {
  const record = (result: AttemptResult | undefined, attempts: number, retryHint?: RetryHint) => {
    const url = joinUrl(run.baseUrl, call.path);
    run.records.set(call.id, { call, url, result, attempts, ...(retryHint && { retryHint }) });
    return run.records.get(call.id)!;
  };
  for (let attempts = 1; ; attempts++) {
    const { budget } = run.limits;
    if (run.requests >= budget) run.stopped ??= { kind: 'budget', limit: budget };
    if (run.stopped) return record(undefined, attempts - 1);
    const answer = yield { kind: 'send', call };
    if (!answer) throw new Error(`no answer handed back for ${call.id}`);
    run.requests += 1;
    const hint = retryHintOf(answer.result, answer.atMs);
    const next = afterAnswer(run, call.id, answer.result, hint, attempts > 1, call.path);
    run.unanswered = answer.result.kind === 'failure' ? call.id : undefined;
    if (next.kind !== 'retry') {
      if (next.kind === 'stop') run.stopped = next.reason;
      return record(answer.result, attempts, hint);
    }
    const { delayMs: ms, source } = next.hint;
    yield { kind: 'wait', ms, check: call.id };
    run.waitedMs += ms;
    run.waits.push({ check: call.id, ms, source });
  }
}

/** Carries a plan out; undefined when `send` sent nothing (a cancelled run). */
export async function drive<T>(
  steps: Paced<T>,
  send: (call: Call) => Promise<AttemptResult | undefined>,
  wait: (ms: number, check: string) => Promise<unknown>,
): Promise<T | undefined> {
  let step = steps.next();
  while (!step.done) {
    const { value } = step;
    const result = value.kind === 'send' ? await send(value.call) : undefined;
    if (value.kind === 'wait') await wait(value.ms, value.check);
    else if (result === undefined) return undefined;
    step = steps.next(result && { result, atMs: Date.now() });
  }
  return step.value;
}
