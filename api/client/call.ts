/** One call to its end: attempts, p-retry's loop, the 429 gate, and the `ApiError` it ends in. */
import pRetry from 'p-retry';
import type { Dispatcher } from 'undici';
import type { AuthScheme, ResponseClass } from '../contract/index.js';
import { type ApiKey, redactSecrets } from './api-key.js';
import {
  type AttemptFailure,
  type AttemptRequest,
  type AttemptResponse,
  type AttemptResult,
  sendAttempt,
  traceparent,
} from './attempt.js';
import {
  ApiError,
  type AnyApiError,
  type ApiErrorFields,
  type RetryRecord,
  type TimeoutError,
} from './errors.js';
import type { clientLog } from './logger.js';
import { readable } from './paths.js';
import {
  type RateLimitGate,
  type RetryOutcome,
  backoffCeilingMs,
  decideRetry,
  parseRateLimitInfo,
  parseRetryHint,
} from './retry.js';

export interface Runtime {
  readonly dispatcher: Dispatcher;
  readonly baseUrl: string;
  readonly host: string;
  readonly key: ApiKey;
  readonly authScheme: AuthScheme;
  readonly maxRetryAfterMs: number;
  readonly gate: RateLimitGate;
  readonly userAgent: string | undefined;
  readonly log: ReturnType<typeof clientLog>;
}

export interface Limits {
  readonly maxRetries: number;
  readonly attemptTimeoutMs: number;
  readonly totalTimeoutMs: number;
}

export interface Plan extends Pick<AttemptRequest, 'endpoint' | 'path' | 'query' | 'signal'> {
  readonly tenant: string | undefined;
  readonly sendKey: boolean;
  readonly limits: Limits;
  /** One trace for the whole call: each attempt is a new span of it. */
  readonly traceId: string;
}

/** An error's own fields; `error()` adds the rest. */
type Context =
  'method' | 'path' | 'host' | 'tenant' | 'traceId' | 'attempts' | 'keyAlias' | 'keyHint';
type Own<F = ApiErrorFields> = F extends unknown ? Omit<F, Context | 'retryHistory'> : never;

/** An attempt must have this much time left, or it is not started. */
const MIN_WINDOW_MS = 100;

type Refused =
  | AttemptFailure
  | (AttemptResponse & { readonly classification: Exclude<ResponseClass, { kind: 'ok' }> });

/** `capped`: the attempt had only what was left of the total budget. */
class Failed extends Error {
  constructor(
    readonly result: Refused,
    readonly capped: boolean,
  ) {
    super('attempt failed');
  }
}

const TOO_LITTLE = 'too little for another attempt';
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function outcomeText(result: AttemptResult): string {
  if (result.kind === 'failure')
    return 'code' in result.failure ? result.failure.code : result.failure.kind;
  const code = 'code' in result.classification ? result.classification.code : undefined;
  return `HTTP ${result.status}${code ? ` ${code}` : ''}`;
}

/** A body that is not the envelope (a proxy's HTML page) as one short line, without markup. */
function bodyExcerptOf(text: string): string {
  const markup = /<!--[\s\S]*?(?:-->|$)|<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)|<[^>]*(?:>|$)/gi;
  const flat = (/^\s*</.test(text) ? text.replace(markup, ' ') : text).replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

export class Call {
  readonly started = Date.now();
  readonly deadline: number;
  attempts = 0;
  waitedMs = 0;
  readonly history: RetryRecord[] = [];

  constructor(
    readonly rt: Runtime,
    readonly plan: Plan,
  ) {
    this.deadline = this.started + plan.limits.totalTimeoutMs;
  }

  /** On abort, rejects with the caller's reason as it was given. */
  run(): Promise<AttemptResponse> {
    const { signal } = this.plan;
    return signal?.aborted ? Promise.reject(signal.reason) : this.attempt(false);
  }

  /** Most calls succeed at once: p-retry starts only after a failure, replayed as its attempt 1. */
  private retry(first: Failed): Promise<AttemptResponse> {
    const { signal } = this.plan;
    // It waits nothing itself: `onFailed` sleeps what `decideRetry` chose.
    return pRetry((n) => (n === 1 ? Promise.reject(first) : this.attempt(true)), {
      retries: Infinity,
      minTimeout: 0,
      onFailedAttempt: ({ error }) => this.onFailed(error),
    }).catch((error: unknown) => {
      throw signal?.aborted ? signal.reason : error;
    });
  }

  private error(fields: Own): AnyApiError {
    const { rt, plan } = this;
    const message = redactSecrets(`GET ${readable(plan.path)} ${fields.message}`, [rt.key]);
    return ApiError.from({
      method: 'GET',
      path: plan.path,
      host: rt.host,
      tenant: plan.tenant,
      traceId: plan.traceId,
      attempts: this.attempts,
      keyAlias: rt.key.alias,
      keyHint: rt.key.hint,
      retryHistory: [...this.history],
      ...fields,
      message,
    });
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

  /** In p-retry's loop (`inRetry`) throws `Failed`; the first failure starts that loop. */
  private async attempt(inRetry: boolean): Promise<AttemptResponse> {
    const { rt, plan } = this;
    // Another call's 429 paused the client: wait it out, or fail at once when it lasts too long.
    for (let pause = rt.gate.current(Date.now()); pause; pause = rt.gate.current(Date.now())) {
      const waitMs = pause.until - Date.now();
      if (waitMs > rt.maxRetryAfterMs || pause.until > this.deadline - MIN_WINDOW_MS) {
        const why = `the client is paused by a rate limit for ${Math.ceil(waitMs / 1000)} s more`;
        throw this.error({
          kind: 'rate_limited',
          message: `not sent: ${why} ${this.tries('gate_wait_too_long')}`,
          status: 429,
          retryAfterMs: waitMs,
          retryAfterBasis: 'hint',
          rateLimit: {},
          retryable: true,
          stopReason: 'gate_wait_too_long',
        });
      }
      await this.sleep(waitMs);
    }
    const remaining = this.deadline - Date.now();
    if (remaining <= 0 || (this.attempts > 0 && remaining < MIN_WINDOW_MS))
      throw this.timeout('total', 'waiting', 'deadline');
    const capped = remaining < plan.limits.attemptTimeoutMs;
    const timeoutMs = capped ? remaining : plan.limits.attemptTimeoutMs;
    this.attempts += 1;
    const key = plan.sendKey ? rt.key : undefined;
    const result = await sendAttempt({
      dispatcher: rt.dispatcher,
      baseUrl: rt.baseUrl,
      path: plan.path,
      query: plan.query,
      endpoint: plan.endpoint,
      key,
      authScheme: rt.authScheme,
      timeoutMs,
      signal: plan.signal,
      traceparent: traceparent(plan.traceId),
      userAgent: rt.userAgent,
    });
    rt.log.debug?.('repair-service attempt', {
      path: plan.path,
      attempt: this.attempts,
      outcome: outcomeText(result),
      traceId: plan.traceId,
      ms: Math.round(result.timings.totalMs),
    });
    if (result.kind === 'response' && result.classification.kind === 'ok') return result;
    const failed = new Failed(result as Refused, capped);
    if (inRetry) throw failed;
    return this.retry(failed);
  }

  /** p-retry's hook: throws to stop, returns after the wait to go again. */
  private async onFailed(error: unknown): Promise<void> {
    const { rt, plan } = this;
    if (plan.signal?.aborted) throw plan.signal.reason;
    if (!(error instanceof Failed)) throw error;
    const { result, capped } = error;
    if (result.kind === 'failure' && result.failure.kind === 'aborted')
      throw plan.signal?.reason ?? result.failure.reason;
    const now = Date.now();
    const hint =
      result.kind === 'response' && result.status === 429
        ? parseRetryHint(result.headers, now)
        : undefined;
    // A hint refused as too long (hint_above_max) fails this call only: pausing every call for it
    // would let one absurd 429 lock the whole client out.
    if (hint && hint.delayMs <= rt.maxRetryAfterMs) rt.gate.pause(now, hint);
    const timedOut = result.kind === 'failure' && result.failure.kind === 'timeout';
    const outcome: RetryOutcome =
      result.kind === 'failure'
        ? result
        : { kind: 'status', status: result.status, headers: result.headers };
    const { maxRetries, attemptTimeoutMs } = plan.limits;
    const decision =
      capped && timedOut
        ? ({ retry: false, reason: 'deadline' } as const)
        : decideRetry({
            outcome,
            now,
            random: Math.random(),
            deadline: this.deadline,
            maxRetryAfterMs: rt.maxRetryAfterMs,
            attempt: this.attempts,
            maxRetries,
            minAttemptWindowMs: MIN_WINDOW_MS,
          });
    if (!decision.retry) {
      // Out of time after a timed-out attempt: the total budget ran out, whichever cut it.
      const scope = capped || (timedOut && decision.reason === 'deadline') ? 'total' : 'attempt';
      throw this.fromAttempt(result, decision.reason, scope, (decision.hint ?? hint)?.delayMs);
    }
    const { delayMs, basis } = decision;
    const status = result.kind === 'response' ? result.status : undefined;
    const record = { attempt: this.attempts, outcome: outcomeText(result), status, delayMs, basis };
    this.history.push(record);
    const upTo = `(up to ${attemptTimeoutMs} ms)`;
    const next = `then attempt ${this.attempts + 1} of ${maxRetries + 1} ${upTo}`;
    const line = `GET ${plan.path} got ${record.outcome}; waiting ${delayMs} ms, ${next}`;
    rt.log.info?.(`repair-service: ${line}`, { path: plan.path, ...record, traceId: plan.traceId });
    await this.sleep(delayMs);
  }

  private tries(stopReason: string | undefined, elapsedMs?: number): string {
    const attempts = plural(this.attempts, 'attempt');
    if (stopReason === 'deadline')
      return `(${attempts}, deadline: ${this.used(elapsedMs)} used, the rest ${TOO_LITTLE})`;
    return `(${attempts}${stopReason && stopReason !== 'not_retryable' ? `, ${stopReason}` : ''})`;
  }

  private used(elapsedMs = Date.now() - this.started): string {
    const { totalTimeoutMs } = this.plan.limits;
    return `${elapsedMs} ms of the ${totalTimeoutMs} ms budget (totalTimeoutMs)`;
  }

  private timeout(
    scope: 'attempt' | 'total',
    phase: TimeoutError['phase'],
    stopReason: string | undefined,
    cause?: unknown,
  ): AnyApiError {
    const { attemptTimeoutMs, totalTimeoutMs } = this.plan.limits;
    const elapsedMs = Date.now() - this.started;
    const left = totalTimeoutMs - elapsedMs;
    const budget = `the ${attemptTimeoutMs} ms budget of one attempt (attemptTimeoutMs)`;
    let text = `${phase} timeout: ${budget} ran out ${this.tries(stopReason, elapsedMs)}`;
    if (scope === 'total') {
      const tries = plural(this.attempts, 'attempt');
      const waits = `${(this.waitedMs / 1000).toFixed(this.waitedMs < 10_000 ? 1 : 0)} s of waits`;
      const rest = left > 0 ? `; ${left} ms left, ${TOO_LITTLE}` : '';
      text = `total timeout: ${this.used(elapsedMs)} used by ${tries} and ${waits}${rest}`;
    }
    return this.error({
      kind: 'timeout',
      message: `failed: ${text}`,
      scope,
      phase,
      timeoutMs: scope === 'total' ? totalTimeoutMs : attemptTimeoutMs,
      waitedMs: this.waitedMs,
      elapsedMs,
      retryable: true,
      stopReason,
      cause,
    });
  }

  private fromAttempt(
    result: Refused,
    stopReason: string,
    scope: 'attempt' | 'total',
    hintMs: number | undefined,
  ): AnyApiError {
    const base = { retryable: stopReason !== 'not_retryable', stopReason };
    if (result.kind === 'failure') {
      const f = result.failure;
      if (f.kind === 'timeout') return this.timeout(scope, f.phase, stopReason, f);
      if (f.kind === 'body_too_large') {
        const [kind, message] = ['invalid_envelope', `failed: ${f.message}`] as const;
        return this.error({ ...base, kind, message, problem: f.kind, detail: f.message });
      }
      const networkCode = 'code' in f ? f.code : f.kind;
      return this.error({
        ...base,
        kind: f.kind === 'tls' ? 'tls_error' : 'connection_error',
        message: `failed: ${networkCode} ${f.message} ${this.tries(stopReason)}`,
        networkCode,
        cause: f,
      });
    }
    const c = result.classification;
    const http = `failed: HTTP ${result.status}`;
    const known = { ...base, status: result.status, requestId: result.requestId };
    if (c.kind === 'redirect') {
      const to = c.location ?? '(no location)';
      const message = `${http} redirect to ${to} not followed (the key is never sent elsewhere)`;
      return this.error({ ...known, kind: 'redirect', message });
    }
    const bodyExcerpt = result.envelope.valid ? undefined : bodyExcerptOf(result.bodyExcerpt);
    if (c.kind === 'invalid_envelope') {
      const message = `${http} body is not the API envelope: ${c.detail}`;
      const { kind, problem, detail } = c;
      return this.error({ ...known, kind, message, problem, detail, bodyExcerpt });
    }
    const { kind, code, message: serverMessage } = c;
    let said = bodyExcerpt ? ` (not the API envelope: "${bodyExcerpt.slice(0, 80)}")` : '';
    if (serverMessage !== undefined) said = ` "${serverMessage}"`;
    const message = `${http}${code ? ` ${code}` : ''}${said} ${this.tries(stopReason)}`;
    const answer = { ...known, message, code, serverMessage, bodyExcerpt };
    if (kind !== 'rate_limited')
      // ResponseClass gives a code and a message to the kinds whose class requires them.
      return this.error({ ...answer, kind } as Own);
    const retryAfterMs = hintMs ?? backoffCeilingMs(this.attempts, true);
    const retryAfterBasis = hintMs === undefined ? 'backoff' : 'hint';
    const rateLimit = parseRateLimitInfo(result.headers, Date.now());
    return this.error({ ...answer, kind, retryAfterMs, retryAfterBasis, rateLimit });
  }
}
