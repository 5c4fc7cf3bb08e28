/**
 * One call to its end: attempts through `sendAttempt`, the pure retry policy deciding between
 * them, p-retry running the loop (with no delay of its own), the client-wide 429 gate shared by
 * every call, and the one place an attempt that did not succeed becomes an `ApiError`.
 */
import pRetry, { AbortError } from 'p-retry';
import type { Dispatcher } from 'undici';
import type { AuthScheme, EndpointId } from '../contract/index.js';
import { type ApiKey, redactSecrets } from './api-key.js';
import { type AttemptResponse, type AttemptResult, answerKind, sendAttempt, traceparent } from './attempt.js';
import { ApiError, type ApiErrorFields, type ErrorKind, type RetryRecord } from './errors.js';
import type { LogFn } from './logger.js';
import { parseRateLimitInfo, parseRetryHint } from './retry-hints.js';
import { type RateLimitGate, decideRetry } from './retry-policy.js';

/** What every call of one client shares. */
export interface Runtime {
  readonly dispatcher: Dispatcher;
  readonly baseUrl: string;
  readonly host: string;
  readonly key: ApiKey;
  readonly authScheme: AuthScheme;
  readonly maxRetryAfterMs: number;
  readonly gate: RateLimitGate;
  readonly userAgent: string | undefined;
  readonly log: { readonly debug?: LogFn | undefined; readonly info?: LogFn | undefined; readonly warn: LogFn };
}

export interface Limits {
  readonly maxRetries: number;
  readonly attemptTimeoutMs: number;
  readonly totalTimeoutMs: number;
}

export interface Plan {
  readonly endpoint: EndpointId | undefined;
  readonly path: string;
  readonly query: string | undefined;
  readonly tenant: string | undefined;
  readonly sendKey: boolean;
  readonly limits: Limits;
  readonly signal: AbortSignal | undefined;
  /** One trace for the whole call: each attempt is a new span of it. */
  readonly traceId: string;
}

/** An attempt must leave this much time, or it is not started. */
const MIN_WINDOW_MS = 100;

class Failed extends Error {
  constructor(
    readonly result: AttemptResult,
    readonly capped: boolean,
  ) {
    super('attempt failed');
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function outcomeText(result: AttemptResult): string {
  if (result.kind === 'failure') return 'code' in result.failure ? result.failure.code : result.failure.kind;
  const code = 'code' in result.classification ? result.classification.code : undefined;
  return `HTTP ${result.status}${code ? ` ${code}` : ''}`;
}

/** A body that is not the envelope (a proxy's HTML page) as one short line: tags, scripts and styles dropped. */
function bodyExcerptOf(text: string): string {
  const plain = /^\s*</.test(text) ? text.replace(/<!--[\s\S]*?(?:-->|$)|<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)|<[^>]*(?:>|$)/gi, ' ') : text;
  const flat = plain.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

/** One call's state across its attempts. */
export class Call {
  readonly started = Date.now();
  readonly deadline: number;
  attempts = 0;
  waitedMs = 0;
  history: RetryRecord[] = [];
  response: AttemptResponse | undefined;

  constructor(
    readonly rt: Runtime,
    readonly plan: Plan,
  ) {
    this.deadline = this.started + plan.limits.totalTimeoutMs;
  }

  /** Resolves with `data` (the response stays on `this.response`). */
  run(): Promise<unknown> {
    const { signal } = this.plan;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const unwrap = (error: unknown): never => {
      throw signal?.aborted ? signal.reason : error instanceof AbortError ? error.originalError : error;
    };
    // The first attempt runs outside p-retry, so a call that succeeds at once (most do) does not pay
    // for its setup; p-retry replays that failure as its attempt 1 and owns every try after it.
    return this.attempt().catch((first: unknown) =>
      pRetry((n) => (n === 1 ? Promise.reject(first) : this.attempt()), {
        retries: Number.POSITIVE_INFINITY,
        minTimeout: 0,
        onFailedAttempt: ({ error }) => this.onFailed(error),
      }).catch(unwrap),
    );
  }

  /** An error of this call, with its context; the key is scrubbed from the message. */
  error(fields: Omit<ApiErrorFields, 'method' | 'path' | 'host' | 'attempts'>): ApiError {
    const { rt, plan } = this;
    const context = { method: 'GET', path: plan.path, host: rt.host, keyAlias: rt.key.alias, keyHint: rt.key.hint, tenant: plan.tenant, traceId: plan.traceId };
    return ApiError.from({ ...context, attempts: this.attempts, retryHistory: [...this.history], ...fields, message: redactSecrets(fields.message, [rt.key]) });
  }

  private async sleep(ms: number): Promise<void> {
    this.waitedMs += ms;
    const { signal } = this.plan;
    await new Promise<void>((resolve, reject) => {
      const abort = (): void => (clearTimeout(timer), reject(signal?.reason));
      const timer = setTimeout(() => (signal?.removeEventListener('abort', abort), resolve()), ms);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  private async attempt(): Promise<unknown> {
    const { rt, plan } = this;
    // Another call's 429 paused the client: wait it out, or fail at once when it lasts too long.
    for (let pause = rt.gate.current(Date.now()); pause; pause = rt.gate.current(Date.now())) {
      const waitMs = pause.until - Date.now();
      if (waitMs > rt.maxRetryAfterMs || pause.until > this.deadline - MIN_WINDOW_MS) {
        const message = `GET ${plan.path} not sent: the client is paused by a rate limit for ${Math.ceil(waitMs / 1000)} s more (${plural(this.attempts, 'attempt')}, gate_wait_too_long)`;
        throw new AbortError(this.error({ kind: 'rate_limited', message, status: 429, retryAfterMs: waitMs, retryable: true, stopReason: 'gate_wait_too_long' }));
      }
      await this.sleep(waitMs);
    }
    const remaining = this.deadline - Date.now();
    if (remaining <= 0 || (this.attempts > 0 && remaining < MIN_WINDOW_MS)) throw new AbortError(this.timeout('total', 'waiting', 'deadline'));
    const capped = remaining < plan.limits.attemptTimeoutMs;
    this.attempts += 1;
    const result = await sendAttempt({
      ...plan,
      dispatcher: rt.dispatcher,
      baseUrl: rt.baseUrl,
      key: plan.sendKey ? rt.key : undefined,
      authScheme: rt.authScheme,
      timeoutMs: capped ? remaining : plan.limits.attemptTimeoutMs,
      traceparent: traceparent(plan.traceId),
      userAgent: rt.userAgent,
    });
    const fields = { path: plan.path, attempt: this.attempts, outcome: outcomeText(result), ms: Math.round(result.timings.totalMs), traceId: plan.traceId };
    rt.log.debug?.('repair-service attempt', fields);
    if (result.kind === 'response' && result.classification.kind === 'ok') {
      this.response = result;
      return result.classification.data;
    }
    throw new Failed(result, capped);
  }

  /** p-retry's hook: throws the final error to stop, returns after the wait to go again. */
  private async onFailed(error: unknown): Promise<void> {
    const { signal, limits, path } = this.plan;
    if (signal?.aborted) throw signal.reason;
    if (!(error instanceof Failed)) throw error;
    const { result, capped } = error;
    if (result.kind === 'failure' && result.failure.kind === 'aborted') throw signal?.reason ?? result.failure.reason;
    const now = Date.now();
    const hint = result.kind === 'response' && result.status === 429 ? parseRetryHint(result.headers, now) : undefined;
    if (hint) this.rt.gate.pause(now, hint);
    const timedOut = result.kind === 'failure' && result.failure.kind === 'timeout';
    const outcome = result.kind === 'failure' ? ({ kind: 'failure', failure: result.failure } as const) : ({ kind: 'status', status: result.status, headers: result.headers } as const);
    const decision =
      capped && timedOut
        ? ({ retry: false, reason: 'deadline' } as const)
        : decideRetry({ attempt: this.attempts, maxRetries: limits.maxRetries, outcome, now, random: Math.random(), deadline: this.deadline, maxRetryAfterMs: this.rt.maxRetryAfterMs, minAttemptWindowMs: MIN_WINDOW_MS });
    if (!decision.retry) {
      // Out of time after a timed-out attempt: the total budget ran out, whichever cut that attempt.
      const scope = capped || (timedOut && decision.reason === 'deadline') ? 'total' : 'attempt';
      throw this.fromAttempt(result, decision.reason, scope, (decision.hint ?? hint)?.delayMs);
    }
    const record: RetryRecord = { attempt: this.attempts, outcome: outcomeText(result), status: result.kind === 'response' ? result.status : undefined, delayMs: decision.delayMs, basis: decision.basis };
    this.history.push(record);
    this.rt.log.info?.('repair-service retry', { path, ...record, traceId: this.plan.traceId });
    await this.sleep(decision.delayMs);
  }

  private tries(stopReason: string | undefined): string {
    if (stopReason === 'deadline') return `(${plural(this.attempts, 'attempt')}, deadline: ${this.used()} used, the rest too little for another attempt)`;
    return `(${plural(this.attempts, 'attempt')}${stopReason && stopReason !== 'not_retryable' ? `, ${stopReason}` : ''})`;
  }

  private used(): string {
    return `${Date.now() - this.started} ms of the ${this.plan.limits.totalTimeoutMs} ms budget (totalTimeoutMs)`;
  }

  /** Names the budget that ran out, its size, and for the total budget what used it. */
  private timeout(scope: 'attempt' | 'total', phase: ApiErrorFields['phase'], stopReason: string | undefined, cause?: unknown): ApiError {
    const { attemptTimeoutMs, totalTimeoutMs } = this.plan.limits;
    const elapsedMs = Date.now() - this.started;
    const waits = `${(this.waitedMs / 1000).toFixed(this.waitedMs < 10_000 ? 1 : 0)} s of waits`;
    const left = totalTimeoutMs - elapsedMs > 0 ? `; ${totalTimeoutMs - elapsedMs} ms left, too little for another attempt` : '';
    const text =
      scope === 'total'
        ? `total timeout: ${this.used()} used by ${plural(this.attempts, 'attempt')} and ${waits}${left}`
        : `${phase} timeout: the ${attemptTimeoutMs} ms budget of one attempt (attemptTimeoutMs) ran out ${this.tries(stopReason)}`;
    const timeoutMs = scope === 'total' ? totalTimeoutMs : attemptTimeoutMs;
    const fields = { scope, phase, timeoutMs, waitedMs: this.waitedMs, elapsedMs, retryable: true, stopReason, cause };
    return this.error({ kind: 'timeout', message: `GET ${this.plan.path} failed: ${text}`, ...fields });
  }

  private fromAttempt(result: AttemptResult, stopReason: string, scope: 'attempt' | 'total', retryAfterMs: number | undefined): ApiError {
    const call = `GET ${this.plan.path}`;
    const kind = answerKind(result) as ErrorKind;
    const stop = { retryable: stopReason !== 'not_retryable', stopReason };
    if (result.kind === 'failure') {
      const f = result.failure;
      if (f.kind === 'timeout') return this.timeout(scope, f.phase, stopReason, f);
      if (f.kind === 'body_too_large') return this.error({ kind, ...stop, message: `${call} failed: ${f.message}`, problem: 'body_too_large', detail: f.message, cause: f });
      const code = 'code' in f ? f.code : f.kind;
      return this.error({ kind, ...stop, message: `${call} failed: ${code} ${f.message} ${this.tries(stopReason)}`, networkCode: code, cause: f });
    }
    const c = result.classification;
    const known = { kind, ...stop, status: result.status, requestId: result.requestId };
    if (c.kind === 'redirect') {
      return this.error({ ...known, message: `${call} failed: HTTP ${result.status} redirect to ${c.location ?? '(no location)'} not followed (the key is never sent elsewhere)` });
    }
    const bodyExcerpt = result.envelope.valid ? undefined : bodyExcerptOf(result.bodyExcerpt);
    if (c.kind === 'invalid_envelope') {
      return this.error({ ...known, message: `${call} failed: HTTP ${result.status} body is not the API envelope: ${c.detail}`, problem: c.problem, detail: c.detail, bodyExcerpt });
    }
    const code = 'code' in c ? c.code : undefined;
    const serverMessage = 'message' in c ? c.message : undefined;
    const said = serverMessage !== undefined ? ` "${serverMessage}"` : bodyExcerpt ? ` (not the API envelope: "${bodyExcerpt.slice(0, 80)}")` : '';
    const limits = kind === 'rate_limited' ? { retryAfterMs, ...parseRateLimitInfo(result.headers, Date.now()) } : {};
    const message = `${call} failed: HTTP ${result.status}${code ? ` ${code}` : ''}${said} ${this.tries(stopReason)}`;
    return this.error({ ...known, ...limits, message, code, serverMessage, bodyExcerpt });
  }
}
