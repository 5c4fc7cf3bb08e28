/**
 * One API call with retries: the thin loop around `sendAttempt` and the pure retry policy.
 * p-retry runs the loop (with no delay of its own); the policy decides, the injected clock
 * sleeps, the gate and the budget are shared by every call of the client.
 */
import pRetry from 'p-retry';
import type { Dispatcher } from 'undici';
import type { AuthScheme, EndpointId } from '../contract/index.js';
import type { ApiKey } from './api-key.js';
import type { DeadlineTimer } from './attempt-deadline.js';
import { type AttemptResponse, type AttemptResult, sendAttempt } from './attempt.js';
import { type Clock, sleepUnlessAborted } from './clock.js';
import type { ConcurrencyLimiter } from './concurrency.js';
import { type ErrorFactoryContext, type TimeoutBudget, errorFromAttempt, rateLimitFromGate, totalTimeout } from './error-factory.js';
import { type ApiError, type RetryRecord, isApiError } from './errors.js';
import type { RateLimitGate } from './gate.js';
import type { ClientLogger } from './logger.js';
import type { Limits } from './options.js';
import type { EncodedQuery } from './query.js';
import type { RetryBudget } from './retry-budget.js';
import type { RetryEvent } from './retry-event.js';
import { type RetryDecision, type RetryOutcome, decideRetry } from './retry-policy.js';
import { type RetryHint, parseRetryHint } from './retry-hints.js';

/** What every call of one client shares. */
export interface CallRuntime {
  readonly dispatcher: Dispatcher;
  readonly baseUrl: string;
  readonly host: string;
  readonly key: ApiKey;
  readonly authScheme: AuthScheme;
  readonly maxRetryAfterMs: number;
  readonly maxBodyBytes: number | undefined;
  /** Undefined with a caller's dispatcher (its own connect timeout applies). */
  readonly connectTimeoutMs: number | undefined;
  readonly clock: Clock;
  readonly random: () => number;
  readonly gate: RateLimitGate;
  readonly budget: RetryBudget;
  readonly limiter: ConcurrencyLimiter;
  readonly deadlineTimer: DeadlineTimer;
  readonly logger: ClientLogger;
  readonly onRetry: ((event: RetryEvent) => void) | undefined;
  /** Called once with the final error, before it is thrown. */
  readonly onFinalError: (error: ApiError) => Promise<void>;
}

export interface CallPlan {
  /** Undefined for a path outside the spec's endpoint table (`get('/tenants/x/repairs/17')`). */
  readonly endpoint: EndpointId | undefined;
  readonly path: string;
  readonly query: EncodedQuery | undefined;
  readonly tenant: string | undefined;
  readonly sendKey: boolean;
  readonly limits: Limits;
  readonly signal: AbortSignal | undefined;
}

/** A failed attempt on its way from the attempt function to the retry decision. */
class FailedAttempt extends Error {
  constructor(
    readonly result: AttemptResult,
    readonly cappedByDeadline: boolean,
  ) {
    super('attempt failed');
  }
}

/** The policy's decision, or the client-wide budget saying no. */
type CallDecision = RetryDecision | { readonly retry: false; readonly reason: 'retry_budget_exhausted'; readonly hint?: RetryHint | undefined };

/** An attempt must leave this much time, or it is not started. */
const MIN_ATTEMPT_WINDOW_MS = 100;

function outcomeOf(result: AttemptResult): RetryOutcome {
  return result.kind === 'failure' ? { kind: 'failure', failure: result.failure } : { kind: 'status', status: result.status, headers: result.headers };
}

function describe(result: AttemptResult): string {
  if (result.kind === 'failure') return 'code' in result.failure ? result.failure.code : `${result.failure.kind}`;
  const code = 'code' in result.classification ? result.classification.code : undefined;
  return `HTTP ${result.status}${code ? ` ${code}` : ''}`;
}

/** The state of one call across its attempts; a class so the success path allocates little. */
export class Call {
  readonly startedAt: number;
  readonly deadline: number;
  /** Created at the first retry: a call that succeeds at once allocates none. */
  history: RetryRecord[] | undefined;
  attempts = 0;
  /** Milliseconds spent in backoffs and rate-limit pauses, for timeout messages. */
  waitedMs = 0;
  /** The successful response, kept for `withResponse()` and pagination. */
  response: AttemptResponse | undefined = undefined;

  constructor(
    readonly rt: CallRuntime,
    readonly plan: CallPlan,
  ) {
    this.startedAt = rt.clock.now();
    this.deadline = this.startedAt + plan.limits.totalTimeoutMs;
  }

  /** A short view: the call holds the runtime, which a log line or a debugger need not dump. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Call GET ${this.plan.path} (${this.attempts} attempt(s))`;
  }

  context(extra: Partial<ErrorFactoryContext> = {}): ErrorFactoryContext {
    const { rt, plan } = this;
    return {
      method: 'GET',
      path: plan.path,
      host: rt.host,
      keyAlias: rt.key.alias,
      keyHint: rt.key.hint,
      tenant: plan.tenant,
      attempts: this.attempts,
      retryHistory: this.history ? [...this.history] : [],
      retryable: false,
      now: rt.clock.now(),
      secrets: [rt.key],
      budget: this.budget(),
      ...extra,
    };
  }

  budget(): TimeoutBudget {
    const { limits } = this.plan;
    return {
      attemptTimeoutMs: limits.attemptTimeoutMs,
      totalTimeoutMs: limits.totalTimeoutMs,
      connectTimeoutMs: this.rt.connectTimeoutMs,
      waitedMs: this.waitedMs,
      elapsedMs: this.rt.clock.now() - this.startedAt,
    };
  }

  async waitForGate(): Promise<void> {
    const { gate, clock, maxRetryAfterMs } = this.rt;
    for (let pause = gate.current(clock.now()); pause; pause = gate.current(clock.now())) {
      const waitMs = pause.until - clock.now();
      if (waitMs > maxRetryAfterMs || pause.until > this.deadline - MIN_ATTEMPT_WINDOW_MS) {
        throw rateLimitFromGate(this.context({ retryable: true, stopReason: 'gate_wait_too_long', hint: pause.hint }), waitMs);
      }
      this.waitedMs += waitMs;
      await sleepUnlessAborted(clock, waitMs, this.plan.signal);
    }
  }

  /** One attempt: resolves with `data`, or throws a FailedAttempt (or a final error). */
  async attempt(): Promise<unknown> {
    const { rt, plan } = this;
    const { gate, clock } = rt;
    if (gate.current(clock.now())) await this.waitForGate();
    const release = rt.limiter.tryAcquire() ?? (await rt.limiter.acquire(plan.signal));
    let result: AttemptResult;
    let timeoutMs: number;
    let capped: boolean;
    try {
      const remaining = this.deadline - clock.now();
      // The window rule is for retries (the policy applies it); a first attempt only needs time left.
      if (remaining <= 0 || (this.attempts > 0 && remaining < MIN_ATTEMPT_WINDOW_MS)) throw totalTimeout(this.context({ retryable: true, stopReason: 'deadline' }));
      capped = remaining < plan.limits.attemptTimeoutMs;
      timeoutMs = capped ? remaining : plan.limits.attemptTimeoutMs;
      this.attempts += 1;
      result = await sendAttempt({
        dispatcher: rt.dispatcher,
        baseUrl: rt.baseUrl,
        path: plan.path,
        query: plan.query,
        endpoint: plan.endpoint,
        key: plan.sendKey ? rt.key : undefined,
        authScheme: rt.authScheme,
        timeoutMs,
        maxBodyBytes: rt.maxBodyBytes,
        signal: plan.signal,
        deadlineTimer: rt.deadlineTimer,
      });
    } finally {
      release();
    }
    rt.logger.debug?.('repair-service attempt', { path: plan.path, attempt: this.attempts, outcome: describe(result), ms: Math.round(result.timings.totalMs) });
    if (result.kind === 'response' && result.classification.kind === 'ok') {
      this.response = result;
      return result.classification.data;
    }
    throw new FailedAttempt(result, capped);
  }

  decide(failed: FailedAttempt): CallDecision {
    const { rt, plan } = this;
    const now = rt.clock.now();
    const { result } = failed;
    if (result.kind === 'response' && result.status === 429) {
      const hint = parseRetryHint(result.headers, now);
      if (hint) rt.gate.pause(now, hint);
    }
    if (failed.cappedByDeadline && result.kind === 'failure' && result.failure.kind === 'timeout') return { retry: false, reason: 'deadline' };
    const decision = decideRetry({
      attempt: this.attempts,
      maxRetries: plan.limits.maxRetries,
      outcome: outcomeOf(result),
      now,
      random: rt.random(),
      deadline: this.deadline,
      maxRetryAfterMs: rt.maxRetryAfterMs,
      minAttemptWindowMs: MIN_ATTEMPT_WINDOW_MS,
    });
    if (decision.retry && !rt.budget.tryTake(now)) return { retry: false, reason: 'retry_budget_exhausted', hint: decision.hint };
    return decision;
  }

  /** p-retry's hook: throw to stop with the final error, return after the backoff to go again. */
  async onFailedAttempt(error: unknown): Promise<void> {
    const { rt, plan } = this;
    const { signal } = plan;
    if (signal?.aborted) throw signal.reason;
    if (!(error instanceof FailedAttempt)) throw error;
    const { result } = error;
    if (result.kind === 'failure' && result.failure.kind === 'aborted') throw signal?.reason ?? error;
    const decision = this.decide(error);
    const failure = (extra: Partial<ErrorFactoryContext>): ApiError =>
      errorFromAttempt(result, this.context({ timeoutScope: error.cappedByDeadline ? 'total' : 'attempt', ...extra }));
    if (!decision.retry) {
      // A timed-out attempt after which the total budget has no room for another: the call
      // ran out of its total budget, whichever budget cut that one attempt.
      const timeoutScope = error.cappedByDeadline || decision.reason === 'deadline' ? 'total' : 'attempt';
      throw failure({ retryable: decision.reason !== 'not_retryable', stopReason: decision.reason, hint: decision.hint, timeoutScope });
    }
    const record: RetryRecord = {
      attempt: this.attempts,
      outcome: describe(result),
      status: result.kind === 'response' ? result.status : undefined,
      delayMs: decision.delayMs,
      basis: decision.basis,
    };
    (this.history ??= []).push(record);
    if (rt.onRetry) {
      try {
        rt.onRetry({ method: 'GET', path: plan.path, attempt: this.attempts, delayMs: decision.delayMs, basis: decision.basis, error: failure({ retryable: true }) });
      } catch (hookError) {
        // An observer must not end the call it observes.
        rt.logger.error('repair-service onRetry threw', { path: plan.path, error: String(hookError) });
      }
    }
    rt.logger.info?.('repair-service retry', { path: plan.path, ...record });
    this.waitedMs += decision.delayMs;
    await sleepUnlessAborted(rt.clock, decision.delayMs, signal);
  }

  async settle(error: unknown): Promise<never> {
    if (this.plan.signal?.aborted) throw this.plan.signal.reason;
    if (isApiError(error)) await this.rt.onFinalError(error);
    throw error;
  }
}

/** Runs `call` to its end: resolves with `data` (the response stays on `call.response`). */
export function executeCall(call: Call): Promise<unknown> {
  const { signal } = call.plan;
  if (signal?.aborted) return Promise.reject(signal.reason);
  // The first attempt runs outside p-retry so a call that succeeds at once pays nothing for
  // the loop; p-retry replays its failure as attempt 1 and owns every try after it.
  return call.attempt().catch((first: unknown) =>
    pRetry((n) => (n === 1 ? Promise.reject(first) : call.attempt()), {
      retries: Number.POSITIVE_INFINITY,
      minTimeout: 0,
      factor: 1,
      onFailedAttempt: ({ error }) => call.onFailedAttempt(error),
    }).catch((error: unknown) => call.settle(error)),
  );
}
