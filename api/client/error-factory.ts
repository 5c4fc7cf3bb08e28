/**
 * The one place an attempt's outcome becomes an error. Classification comes from the contract
 * (status plus `error.code`), so every tool built on the contract classifies alike.
 */
import type { EnvelopeProblem } from '../contract/index.js';
import { type ApiKey, redactSecrets } from './api-key.js';
import type { AttemptFailure, AttemptResponse, AttemptResult } from './attempt.js';
import {
  ApiError,
  type ApiErrorFields,
  AuthenticationError,
  ConnectionError,
  EnvelopeError,
  InsufficientScopeError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TenantMismatchError,
  TimeoutError,
  type TimeoutScope,
} from './errors.js';
import { type RetryHint, parseRateLimitInfo, parseRetryHint } from './retry-hints.js';

/** Who made the call and how it went: the fields every error carries, plus what the factory needs. */
export interface ErrorFactoryContext
  extends Pick<ApiErrorFields, 'method' | 'path' | 'host' | 'keyAlias' | 'keyHint' | 'tenant' | 'attempts' | 'retryHistory' | 'retryable' | 'stopReason'> {
  /** Wall-clock ms, for HTTP-date hints. */
  readonly now: number;
  /** The limit a timed-out attempt ran under, and whether it was the call's total deadline. */
  readonly timeoutMs?: number | undefined;
  readonly timeoutScope?: TimeoutScope | undefined;
  /** The hint the retry policy read, if it already parsed one. */
  readonly hint?: RetryHint | undefined;
  /** Key values to scrub from any text the server sent back (a last net). */
  readonly secrets?: readonly ApiKey[] | undefined;
}

function scrub(ctx: ErrorFactoryContext, text: string): string;
function scrub(ctx: ErrorFactoryContext, text: string | undefined): string | undefined;
function scrub(ctx: ErrorFactoryContext, text: string | undefined): string | undefined {
  return text === undefined || !ctx.secrets ? text : redactSecrets(text, ctx.secrets);
}

function base(ctx: ErrorFactoryContext, message: string, extra: Partial<ApiErrorFields> = {}): ApiErrorFields {
  return {
    message: scrub(ctx, message),
    method: ctx.method,
    path: ctx.path,
    host: ctx.host,
    keyAlias: ctx.keyAlias,
    keyHint: ctx.keyHint,
    tenant: ctx.tenant,
    attempts: ctx.attempts,
    retryHistory: ctx.retryHistory,
    retryable: ctx.retryable,
    stopReason: ctx.stopReason,
    ...extra,
    serverMessage: scrub(ctx, extra.serverMessage),
  };
}

function tries(ctx: ErrorFactoryContext): string {
  const reason = ctx.stopReason && ctx.stopReason !== 'not_retryable' ? `, ${ctx.stopReason}` : '';
  return `(${ctx.attempts} attempt${ctx.attempts === 1 ? '' : 's'}${reason})`;
}

function fromFailure(result: AttemptFailure, ctx: ErrorFactoryContext): ApiError {
  const { failure } = result;
  const call = `${ctx.method} ${ctx.path}`;
  switch (failure.kind) {
    case 'timeout': {
      const scope = ctx.timeoutScope ?? 'attempt';
      const limit = ctx.timeoutMs ?? 0;
      const what = scope === 'total' ? 'total timeout' : `${failure.phase} timeout`;
      return new TimeoutError({
        ...base(ctx, `${call} failed: ${what} after ${limit} ms ${tries(ctx)}`),
        scope,
        phase: failure.phase,
        timeoutMs: limit,
        cause: failure,
      });
    }
    case 'connection':
    case 'tls':
      return new ConnectionError({
        ...base(ctx, `${call} failed: ${failure.code} ${failure.message} ${tries(ctx)}`),
        networkCode: failure.code,
        cause: failure,
      });
    case 'body_too_large':
      return new EnvelopeError({
        ...base(ctx, `${call} failed: ${failure.message}`),
        problem: 'body_too_large',
        detail: failure.message,
        cause: failure,
      });
    case 'aborted':
      return new ApiError(base(ctx, `${call} aborted`, { cause: failure }));
  }
}

function fromResponse(res: AttemptResponse, ctx: ErrorFactoryContext): ApiError {
  const c = res.classification;
  const call = `${ctx.method} ${ctx.path}`;
  const known = { status: res.status, requestId: res.requestId };
  const said = (code: string | undefined, message: string | undefined): string =>
    `${call} failed: HTTP ${res.status}${code ? ` ${code}` : ''}${message === undefined ? '' : ` "${message}"`} ${tries(ctx)}`;
  const coded = (code: string | undefined, message: string | undefined): ApiErrorFields =>
    base(ctx, said(code, message), { ...known, code, serverMessage: message });
  switch (c.kind) {
    case 'unauthorized':
      return new AuthenticationError(coded(c.code, c.message));
    case 'tenant_mismatch':
      return new TenantMismatchError(coded(c.code, c.message));
    case 'insufficient_scope':
      return new InsufficientScopeError(coded(c.code, c.message));
    case 'forbidden':
      return new PermissionDeniedError(coded(c.code, c.message));
    case 'rate_limited': {
      const hint = ctx.hint ?? parseRetryHint(res.headers, ctx.now);
      const info = parseRateLimitInfo(res.headers, ctx.now);
      return new RateLimitError({ ...coded(c.code, c.message), retryAfterMs: hint?.delayMs, ...info });
    }
    case 'server_error':
      return new ServerError(coded(c.code, c.message));
    case 'client_error':
      return new ApiError(coded(c.code, c.message));
    case 'redirect':
      return new ApiError(
        base(ctx, `${call} failed: HTTP ${res.status} redirect to ${c.location ?? '(no location)'} not followed (the key is never sent elsewhere)`, known),
      );
    case 'invalid_envelope':
      return new EnvelopeError({
        ...base(ctx, `${call} failed: HTTP ${res.status} body is not the API envelope: ${c.detail}`, known),
        problem: c.problem,
        detail: scrub(ctx, c.detail),
        bodyExcerpt: res.bodyExcerpt,
      });
    case 'ok':
      return new EnvelopeError({
        ...base(ctx, `${call}: a successful response was treated as a failure`, known),
        problem: 'status_ok_mismatch',
        detail: 'internal: success passed to the error factory',
      });
  }
}

/** The error for an attempt that did not succeed. */
export function errorFromAttempt(result: AttemptResult, ctx: ErrorFactoryContext): ApiError {
  return result.kind === 'failure' ? fromFailure(result, ctx) : fromResponse(result, ctx);
}

/** The gate holds calls longer than this call may wait: fail without sending anything. */
export function rateLimitFromGate(ctx: ErrorFactoryContext, waitMs: number): RateLimitError {
  return new RateLimitError({
    ...base(ctx, `${ctx.method} ${ctx.path} not sent: the client is paused by a rate limit for ${Math.ceil(waitMs / 1000)} s more ${tries(ctx)}`),
    status: 429,
    retryAfterMs: waitMs,
  });
}

/** The call's total deadline passed before or between attempts. */
export function totalTimeout(ctx: ErrorFactoryContext, timeoutMs: number): TimeoutError {
  return new TimeoutError({
    ...base(ctx, `${ctx.method} ${ctx.path} failed: total timeout after ${timeoutMs} ms ${tries(ctx)}`),
    scope: 'total',
    phase: 'waiting',
    timeoutMs,
  });
}
