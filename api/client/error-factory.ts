/**
 * The one place an attempt's outcome becomes an error. Classification comes from the contract
 * (status plus `error.code`), so every tool built on the contract classifies alike.
 */
import { type ApiKey, redactSecrets } from './api-key.js';
import type { AttemptFailure, AttemptResponse, AttemptResult } from './attempt.js';
import { bodyExcerptOf } from './body-excerpt.js';
import {
  ApiError,
  type ApiErrorFields,
  AuthenticationError,
  ConnectionError,
  EnvelopeError,
  InsufficientScopeError,
  NotFoundError,
  PaginationError,
  type PaginationProblem,
  ParseError,
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
  /** Whether a timed-out attempt was cut by the call's total deadline or its own budget. */
  readonly timeoutScope?: TimeoutScope | undefined;
  /** The call's budgets and how much of it went to waits, for timeout messages. */
  readonly budget?: TimeoutBudget | undefined;
  /** The hint the retry policy read, if it already parsed one. */
  readonly hint?: RetryHint | undefined;
  /** Key values to scrub from any text the server sent back (a last net). */
  readonly secrets?: readonly ApiKey[] | undefined;
}

export interface TimeoutBudget {
  readonly attemptTimeoutMs: number;
  readonly totalTimeoutMs: number;
  /** Undefined when the caller passed its own dispatcher. */
  readonly connectTimeoutMs: number | undefined;
  readonly waitedMs: number;
  /** Time since the call started, waits and attempts included. */
  readonly elapsedMs: number;
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
    code: scrub(ctx, extra.code),
    serverMessage: scrub(ctx, extra.serverMessage),
  };
}

function tries(ctx: ErrorFactoryContext): string {
  const b = ctx.budget;
  // Stopped for time: say how much of which budget went, not only that it did.
  if (ctx.stopReason === 'deadline' && b) return `(${plural(ctx.attempts, 'attempt')}, deadline: ${usedOfTotal(b)} used, the rest too little for another attempt)`;
  const reason = ctx.stopReason && ctx.stopReason !== 'not_retryable' ? `, ${ctx.stopReason}` : '';
  return `(${ctx.attempts} attempt${ctx.attempts === 1 ? '' : 's'}${reason})`;
}

/** `612 ms of the 600 ms budget (totalTimeoutMs)`: the time the call took, measured, next to its budget. */
function usedOfTotal(b: TimeoutBudget): string {
  return `${Math.round(b.elapsedMs)} ms of the ${b.totalTimeoutMs} ms budget (totalTimeoutMs)`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function secondsText(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** Names the budget that ran out, its size, and for the total budget what used it. */
function timeoutText(ctx: ErrorFactoryContext, scope: TimeoutScope, phase: TimeoutError['phase']): { text: string; limit: number } {
  const b = ctx.budget;
  if (scope === 'total') {
    const limit = b?.totalTimeoutMs ?? 0;
    const used = b ? usedOfTotal(b) : `the ${limit} ms budget (totalTimeoutMs)`;
    // The call stops before the deadline when what is left cannot hold another attempt.
    const leftMs = b ? limit - Math.round(b.elapsedMs) : 0;
    const left = leftMs > 0 ? `; ${leftMs} ms left, too little for another attempt` : '';
    return { text: `total timeout: ${used} used by ${plural(ctx.attempts, 'attempt')} and ${secondsText(b?.waitedMs ?? 0)} of waits${left}`, limit };
  }
  if (phase === 'connect' && b?.connectTimeoutMs !== undefined) {
    return { text: `connect timeout: no connection within the ${b.connectTimeoutMs} ms budget (connectTimeoutMs)`, limit: b.connectTimeoutMs };
  }
  const limit = b?.attemptTimeoutMs ?? 0;
  return { text: `${phase} timeout: the ${limit} ms budget of one attempt (attemptTimeoutMs) ran out`, limit };
}

function timeoutError(ctx: ErrorFactoryContext, scope: TimeoutScope, phase: TimeoutError['phase'], cause?: unknown): TimeoutError {
  const { text, limit } = timeoutText(ctx, scope, phase);
  return new TimeoutError({
    // The total budget's text already counts the attempts; the attempt budget's does not.
    ...base(ctx, `${ctx.method} ${ctx.path} failed: ${text}${scope === 'total' ? '' : ` ${tries(ctx)}`}`),
    scope,
    phase,
    timeoutMs: limit,
    waitedMs: ctx.budget?.waitedMs,
    elapsedMs: ctx.budget === undefined ? undefined : Math.round(ctx.budget.elapsedMs),
    cause,
  });
}

function fromFailure(result: AttemptFailure, ctx: ErrorFactoryContext): ApiError {
  const { failure } = result;
  const call = `${ctx.method} ${ctx.path}`;
  switch (failure.kind) {
    case 'timeout':
      return timeoutError(ctx, ctx.timeoutScope ?? 'attempt', failure.phase, failure);
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
  // A body that is not the envelope (a proxy's HTML page) is the only clue to what answered.
  const known = { status: res.status, requestId: res.requestId, bodyExcerpt: res.envelope.valid ? undefined : bodyExcerptOf(res.bodyExcerpt) };
  const body = known.bodyExcerpt ? ` (not the API envelope: "${clipText(known.bodyExcerpt, 80)}")` : '';
  const said = (code: string | undefined, message: string | undefined): string =>
    `${call} failed: HTTP ${res.status}${code ? ` ${code}` : ''}${message === undefined ? body : ` "${message}"`} ${tries(ctx)}`;
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
    case 'not_found':
      return new NotFoundError(coded(c.code, c.message));
    case 'client_error':
      return res.status === 404 ? new NotFoundError(coded(c.code, c.message)) : new ApiError(coded(c.code, c.message));
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
export function totalTimeout(ctx: ErrorFactoryContext): TimeoutError {
  return timeoutError(ctx, 'total', 'waiting');
}

/** A success whose data failed the caller's parse hook. */
export function parseFailure(ctx: ErrorFactoryContext, res: AttemptResponse | undefined, index: number | undefined, issue: string): ParseError {
  const what = index === undefined ? 'data' : `item ${index}`;
  const clean = scrub(ctx, issue);
  return new ParseError({
    ...base(ctx, `${ctx.method} ${ctx.path}: ${what} failed the parse hook: ${clean}`, { status: res?.status, requestId: res?.requestId }),
    index,
    issue: clean,
  });
}

/** Following `Link: rel="next"` stopped: a refused link, a loop or the page cap. */
export function paginationFailure(ctx: ErrorFactoryContext, problem: PaginationProblem, detail: string, link: string | undefined, pages: number): PaginationError {
  const shown = link === undefined ? undefined : clipText(scrub(ctx, link), 300);
  return new PaginationError({
    ...base(ctx, `${ctx.method} ${ctx.path}: pagination stopped after ${plural(pages, 'page')}: ${detail}${shown === undefined ? '' : ` (next link ${JSON.stringify(shown)})`}`),
    problem,
    link: shown,
    pages,
  });
}

function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
