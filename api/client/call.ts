/**
 * One call to its end: attempts through `sendAttempt`, the pure retry policy deciding between
 * them, p-retry running the loop (with no delay of its own), the client-wide 429 gate shared by
 * every call, and the one place an attempt that did not succeed becomes an `ApiError`.
 */
import pRetry, { AbortError } from 'p-retry';
import type { Dispatcher } from 'undici';
import { type AuthScheme, type EndpointId, SECRET_HEADERS } from '../contract/index.js';
import { type ApiKey, redactSecrets } from './api-key.js';
import { type AttemptResponse, type AttemptResult, type TransportFailure, answerKind, sendAttempt } from './attempt.js';
import { ApiError, type ApiErrorFields, type RetryRecord } from './errors.js';
import type { LogFn } from './logger.js';
import { type RateLimitInfo, type RetryHint, parseRateLimitInfo, parseRetryHint } from './retry-hints.js';
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
  readonly headers: Readonly<Record<string, string>>;
  readonly log: { readonly debug?: LogFn | undefined; readonly info?: LogFn | undefined };
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
}

/** The response around the data, for `withResponse()`. */
export interface ApiResponse {
  readonly status: number;
  /** Names lowercase; credential and cookie headers left out. */
  readonly headers: Readonly<Record<string, string>>;
  readonly requestId: string | undefined;
  /** Limit, remaining and reset, from whichever rate-limit header style the server sent. */
  readonly rateLimit: RateLimitInfo;
  readonly method: 'GET';
  readonly path: string;
  /** The query string sent (encoded, without `?`), if any. */
  readonly query: string | undefined;
  readonly attempts: number;
}

/** An attempt must leave this much time, or it is not started. */
const MIN_ATTEMPT_WINDOW_MS = 100;
const HIDDEN_HEADERS = new Set([...SECRET_HEADERS, 'proxy-authorization', 'set-cookie', 'cookie']);

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

/** A body that is not the envelope (a proxy's HTML page), as a short readable line. */
function bodyExcerptOf(text: string, max = 200): string {
  const plain = /^\s*</.test(text) ? text.replace(/<!--[\s\S]*?(?:-->|$)|<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)|<[^>]*(?:>|$)/gi, ' ') : text;
  const flat = plain.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
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

  /** Runs the call; resolves with `data` (the response stays on `this.response`). */
  run(): Promise<unknown> {
    const { signal } = this.plan;
    if (signal?.aborted) return Promise.reject(signal.reason);
    // The first attempt runs outside p-retry: a call that succeeds at once (most do) does not pay
    // for its setup; p-retry replays that failure as its attempt 1 and owns every try after it.
    return this.attempt().catch((first: unknown) =>
      pRetry((n) => (n === 1 ? Promise.reject(first) : this.attempt()), { retries: Number.POSITIVE_INFINITY, minTimeout: 0, factor: 1, onFailedAttempt: ({ error }) => this.onFailed(error) }).catch(
        (error: unknown) => {
          throw signal?.aborted ? signal.reason : error instanceof AbortError ? error.originalError : error;
        },
      ),
    );
  }

  withResponse(): ApiResponse {
    const res = this.response!;
    const headers: Record<string, string> = {};
    // A public call (/docs) went without the key, so its headers were not scrubbed of it yet.
    for (const name in res.headers) if (!HIDDEN_HEADERS.has(name)) headers[name] = redactSecrets(res.headers[name]!, [this.rt.key]);
    return { status: res.status, headers, requestId: res.requestId, rateLimit: parseRateLimitInfo(res.headers, Date.now()), method: 'GET', path: this.plan.path, query: this.plan.query, attempts: this.attempts };
  }

  /** An error of this call with its context; the key is scrubbed from the message. */
  error(fields: Omit<ApiErrorFields, 'method' | 'path' | 'host' | 'attempts'>): ApiError {
    const { rt, plan } = this;
    return ApiError.from({
      method: 'GET',
      path: plan.path,
      host: rt.host,
      keyAlias: rt.key.alias,
      keyHint: rt.key.hint,
      tenant: plan.tenant,
      attempts: this.attempts,
      retryHistory: [...this.history],
      ...fields,
      message: redactSecrets(fields.message, [rt.key]),
    });
  }

  private async sleep(ms: number): Promise<void> {
    this.waitedMs += ms;
    const { signal } = this.plan;
    await new Promise<void>((resolve, reject) => {
      const done = (): void => {
        signal?.removeEventListener('abort', abort);
        resolve();
      };
      const timer = setTimeout(done, ms);
      const abort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Waits out the client's 429 pause, or fails at once when it lasts longer than this call may wait. */
  private async waitForGate(): Promise<void> {
    for (let pause = this.rt.gate.current(Date.now()); pause; pause = this.rt.gate.current(Date.now())) {
      const waitMs = pause.until - Date.now();
      if (waitMs > this.rt.maxRetryAfterMs || pause.until > this.deadline - MIN_ATTEMPT_WINDOW_MS) {
        const message = `GET ${this.plan.path} not sent: the client is paused by a rate limit for ${Math.ceil(waitMs / 1000)} s more (${plural(this.attempts, 'attempt')}, gate_wait_too_long)`;
        throw new AbortError(this.error({ kind: 'rate_limited', message, status: 429, retryAfterMs: waitMs, retryable: true, stopReason: 'gate_wait_too_long' }));
      }
      await this.sleep(waitMs);
    }
  }

  private async attempt(): Promise<unknown> {
    const { rt, plan } = this;
    if (rt.gate.current(Date.now())) await this.waitForGate();
    const remaining = this.deadline - Date.now();
    if (remaining <= 0 || (this.attempts > 0 && remaining < MIN_ATTEMPT_WINDOW_MS)) {
      throw new AbortError(this.timeout('total', 'waiting', undefined, 'deadline'));
    }
    const capped = remaining < plan.limits.attemptTimeoutMs;
    this.attempts += 1;
    const result = await sendAttempt({
      dispatcher: rt.dispatcher,
      baseUrl: rt.baseUrl,
      path: plan.path,
      query: plan.query,
      endpoint: plan.endpoint,
      key: plan.sendKey ? rt.key : undefined,
      authScheme: rt.authScheme,
      timeoutMs: capped ? remaining : plan.limits.attemptTimeoutMs,
      signal: plan.signal,
      headers: rt.headers,
    });
    rt.log.debug?.('repair-service attempt', { path: plan.path, attempt: this.attempts, outcome: outcomeText(result), ms: Math.round(result.timings.totalMs) });
    if (result.kind === 'response' && result.classification.kind === 'ok') {
      this.response = result;
      return result.classification.data;
    }
    throw new Failed(result, capped);
  }

  /** p-retry's hook: throws the final error to stop, returns after the wait to go again. */
  private async onFailed(error: unknown): Promise<void> {
    const { signal } = this.plan;
    if (signal?.aborted) throw signal.reason;
    if (!(error instanceof Failed)) throw error;
    const { result, capped } = error;
    if (result.kind === 'failure' && result.failure.kind === 'aborted') throw signal?.reason ?? result.failure.reason;
    const now = Date.now();
    const hint = result.kind === 'response' && result.status === 429 ? parseRetryHint(result.headers, now) : undefined;
    if (hint) this.rt.gate.pause(now, hint);
    const timedOut = result.kind === 'failure' && result.failure.kind === 'timeout';
    const decision =
      capped && timedOut
        ? ({ retry: false, reason: 'deadline' } as const)
        : decideRetry({
            attempt: this.attempts,
            maxRetries: this.plan.limits.maxRetries,
            outcome: result.kind === 'failure' ? { kind: 'failure', failure: result.failure } : { kind: 'status', status: result.status, headers: result.headers },
            now,
            random: Math.random(),
            deadline: this.deadline,
            maxRetryAfterMs: this.rt.maxRetryAfterMs,
            minAttemptWindowMs: MIN_ATTEMPT_WINDOW_MS,
          });
    if (!decision.retry) {
      // Out of time after a timed-out attempt: the total budget ran out, whichever cut that attempt.
      const scope = capped || (timedOut && decision.reason === 'deadline') ? 'total' : 'attempt';
      throw this.fromAttempt(result, { retryable: decision.reason !== 'not_retryable', stopReason: decision.reason, hint: decision.hint ?? hint, scope });
    }
    const record: RetryRecord = { attempt: this.attempts, outcome: outcomeText(result), status: result.kind === 'response' ? result.status : undefined, delayMs: decision.delayMs, basis: decision.basis };
    this.history.push(record);
    this.rt.log.info?.('repair-service retry', { path: this.plan.path, ...record });
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
  private timeout(scope: 'attempt' | 'total', phase: ApiErrorFields['phase'], failure: TransportFailure | undefined, stopReason: string | undefined): ApiError {
    const { limits } = this.plan;
    const elapsedMs = Date.now() - this.started;
    let text: string;
    if (scope === 'total') {
      const left = limits.totalTimeoutMs - elapsedMs;
      text = `total timeout: ${this.used()} used by ${plural(this.attempts, 'attempt')} and ${(this.waitedMs / 1000).toFixed(this.waitedMs < 10_000 ? 1 : 0)} s of waits${left > 0 ? `; ${left} ms left, too little for another attempt` : ''}`;
    } else {
      text = `${phase} timeout: the ${limits.attemptTimeoutMs} ms budget of one attempt (attemptTimeoutMs) ran out ${this.tries(stopReason)}`;
    }
    const timeoutMs = scope === 'total' ? limits.totalTimeoutMs : limits.attemptTimeoutMs;
    return this.error({ kind: 'timeout', message: `GET ${this.plan.path} failed: ${text}`, scope, phase, timeoutMs, waitedMs: this.waitedMs, elapsedMs, retryable: true, stopReason, cause: failure });
  }

  private fromAttempt(result: AttemptResult, stop: { retryable: boolean; stopReason: string; hint: RetryHint | undefined; scope: 'attempt' | 'total' }): ApiError {
    const call = `GET ${this.plan.path}`;
    const { retryable, stopReason } = stop;
    const kind = answerKind(result) as ApiErrorFields['kind'];
    if (result.kind === 'failure') {
      const f = result.failure;
      if (f.kind === 'timeout') return this.timeout(stop.scope, f.phase, f, stopReason);
      if (f.kind === 'body_too_large') return this.error({ kind, message: `${call} failed: ${f.message}`, problem: 'body_too_large', detail: f.message, retryable, stopReason, cause: f });
      const code = 'code' in f ? f.code : f.kind;
      return this.error({ kind, message: `${call} failed: ${code} ${f.message} ${this.tries(stopReason)}`, networkCode: code, retryable, stopReason, cause: f });
    }
    const c = result.classification;
    const known = { status: result.status, requestId: result.requestId, retryable, stopReason };
    if (c.kind === 'redirect') return this.error({ kind, ...known, message: `${call} failed: HTTP ${result.status} redirect to ${c.location ?? '(no location)'} not followed (the key is never sent elsewhere)` });
    if (c.kind === 'invalid_envelope') {
      const excerpt = bodyExcerptOf(result.bodyExcerpt);
      return this.error({ kind, ...known, message: `${call} failed: HTTP ${result.status} body is not the API envelope: ${c.detail}`, problem: c.problem, detail: c.detail, bodyExcerpt: excerpt });
    }
    const code = 'code' in c ? c.code : undefined;
    const serverMessage = 'message' in c ? c.message : undefined;
    const excerpt = result.envelope.valid ? undefined : bodyExcerptOf(result.bodyExcerpt);
    const said = serverMessage === undefined ? (excerpt ? ` (not the API envelope: "${excerpt.slice(0, 80)}")` : '') : ` "${serverMessage}"`;
    const message = `${call} failed: HTTP ${result.status}${code ? ` ${code}` : ''}${said} ${this.tries(stopReason)}`;
    const limits = kind === 'rate_limited' ? { retryAfterMs: stop.hint?.delayMs, ...parseRateLimitInfo(result.headers, Date.now()) } : {};
    return this.error({ kind, ...known, ...limits, message, code, serverMessage, bodyExcerpt: excerpt });
  }
}
