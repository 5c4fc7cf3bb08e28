/**
 * The inspection engine `npm run check` shares with the toolkit's probe: a plan is a generator of
 * calls, each sent as one plain attempt (never retried behind the plan's back) within the run's
 * request budget. A 429 whose hint fits the run's wait allowance is waited out and asked once
 * more; any other 429 stops the run, as does a host that cannot be reached or hangs.
 */
import { type AttemptResult, type RetryHint, answerKind } from '../client/single-attempt.js';
import { parseRetryHint } from '../client/single-attempt.js';
import { type AuthScheme, type EndpointId, joinUrl } from '../contract/index.js';

export interface Call {
  /** The call's key in the observations: `docs`, `scope:<resource>`, `platform:<sub>`, ... */
  readonly id: string;
  readonly endpoint: EndpointId;
  readonly path: string;
  /** The header form the key travels in, or `none` for a call without a key. */
  readonly auth: AuthScheme | 'none';
  /** A key made up so it cannot be valid goes instead of the user's. */
  readonly madeUpKey?: true;
}

export interface CallRecord {
  readonly call: Call;
  readonly url: string;
  /** Undefined when the run stopped before the call. */
  readonly result: AttemptResult | undefined;
  /** Requests sent: 2 when a 429 was asked again after the wait it named. */
  readonly attempts: number;
  readonly retryHint?: RetryHint | undefined;
}

/** Calls by id, in the order they were made. */
export type Observations = ReadonlyMap<string, CallRecord>;

/** Requests a run may send, retries included. */
export const REQUEST_BUDGET = 10;

export type StopReason =
  /** /docs could not connect (refused, DNS, TLS): every other call would fail the same way. */
  | { readonly kind: 'host_unreachable'; readonly check: string }
  /** Two calls in a row got no answer: the host hangs, not one path. */
  | { readonly kind: 'no_answer'; readonly checks: readonly [string, string] }
  | {
      readonly kind: 'rate_limited';
      readonly check: string;
      readonly hint: RetryHint | undefined;
      readonly why: 'no_hint' | 'too_long' | 'still_limited' | 'budget';
    }
  | { readonly kind: 'budget'; readonly limit: number };

export interface PacedRun {
  readonly baseUrl: string;
  readonly limits: Readonly<Record<'budget' | 'maxWaitMs', number>>;
  readonly records: Map<string, CallRecord>;
  readonly waits: {
    readonly check: string;
    readonly ms: number;
    readonly source: RetryHint['source'];
  }[];
  requests: number;
  waitedMs: number;
  stopped: StopReason | undefined;
  /** The last call's id when it got no answer. */
  unanswered: string | undefined;
}

export function pacedRun(baseUrl: string, limits: PacedRun['limits']): PacedRun {
  const run = { baseUrl, limits, records: new Map(), waits: [], requests: 0, waitedMs: 0 };
  return { ...run, stopped: undefined, unanswered: undefined };
}

/** What to do next: send a call, or wait (a 429's hint) before sending it again. */
export type Step =
  | { readonly kind: 'send'; readonly call: Call }
  | { readonly kind: 'wait'; readonly ms: number; readonly check: string };

/** Handed back after a `send`, with when it came (an HTTP-date Retry-After is relative to it). */
export type Answer = { readonly result: AttemptResult; readonly atMs: number };

export type Paced<T> = Generator<Step, T, Answer | undefined>;

/** A 429's hint in whichever header style the server used. */
export function retryHintOf(result: AttemptResult, atMs: number): RetryHint | undefined {
  if (result.kind !== 'response' || answerKind(result) !== 'rate_limited') return undefined;
  return parseRetryHint(result.headers, atMs);
}

/** After an answer (`run` has counted its request): go on, wait and ask again, or stop the run. */
export function afterAnswer(
  run: Omit<PacedRun, 'records' | 'waits'>,
  id: string,
  answer: AttemptResult,
  hint: RetryHint | undefined,
  retried: boolean,
) {
  const stop = (reason: StopReason) => ({ kind: 'stop' as const, reason });
  const failed = answer.kind === 'failure';
  if (id === 'docs' && failed && answer.failure.kind !== 'timeout')
    return stop({ kind: 'host_unreachable', check: id });
  if (failed && run.unanswered !== undefined)
    return stop({ kind: 'no_answer', checks: [run.unanswered, id] });
  if (answerKind(answer) !== 'rate_limited') return { kind: 'next' as const };
  const limited = (why: Extract<StopReason, { hint: unknown }>['why']) =>
    stop({ kind: 'rate_limited', check: id, hint, why });
  if (hint === undefined) return limited('no_hint');
  if (retried) return limited('still_limited');
  if (run.waitedMs + hint.delayMs > run.limits.maxWaitMs) return limited('too_long');
  if (run.requests >= run.limits.budget) return limited('budget');
  return { kind: 'retry' as const, hint };
}

function keep(run: PacedRun, record: CallRecord): CallRecord {
  run.records.set(record.call.id, record);
  return record;
}

/** One call: sent unless the run has stopped, asked once more after a wait the server named. */
export function* pacedCall(run: PacedRun, call: Call): Paced<CallRecord> {
  const url = joinUrl(run.baseUrl, call.path);
  for (let attempts = 0; ;) {
    const { budget } = run.limits;
    if (run.requests >= budget) run.stopped ??= { kind: 'budget', limit: budget };
    if (run.stopped) return keep(run, { call, url, result: undefined, attempts });
    const answer = yield { kind: 'send', call };
    if (!answer) throw new Error(`no answer handed back for ${call.id}`);
    run.requests += 1;
    attempts += 1;
    const retryHint = retryHintOf(answer.result, answer.atMs);
    const next = afterAnswer(run, call.id, answer.result, retryHint, attempts > 1);
    run.unanswered = answer.result.kind === 'failure' ? call.id : undefined;
    if (next.kind === 'retry') {
      const { delayMs: ms, source } = next.hint;
      yield { kind: 'wait', ms, check: call.id };
      run.waitedMs += ms;
      run.waits.push({ check: call.id, ms, source });
      continue;
    }
    if (next.kind === 'stop') run.stopped = next.reason;
    return keep(run, {
      call,
      url,
      result: answer.result,
      attempts,
      ...(retryHint && { retryHint }),
    });
  }
}

/** Carries a plan out; undefined when `send` sent nothing (a cancelled run). */
export async function drive<T>(
  steps: Paced<T>,
  send: (call: Call) => Promise<AttemptResult | undefined>,
  wait: (ms: number, check: string) => Promise<unknown>,
): Promise<T | undefined> {
  for (let step = steps.next(); ;) {
    if (step.done) return step.value;
    if (step.value.kind === 'wait') {
      await wait(step.value.ms, step.value.check);
      step = steps.next();
      continue;
    }
    const result = await send(step.value.call);
    if (result === undefined) return undefined;
    step = steps.next({ result, atMs: Date.now() });
  }
}
