/**
 * The client's one error tree. Every error a call can end with is an `ApiError`; the class
 * says what to do about it, the fields say exactly what happened. Built only by
 * `error-factory.ts`. Guards check a shared brand plus `name`, so they work across two copies
 * of this file (a generated project and a library both shipping it).
 */
import type { EnvelopeProblem } from '../contract/index.js';
import type { TimeoutPhase } from './transport-failure.js';

const BRAND = Symbol.for('repair-service.client.ApiError');

/** One failed attempt that was retried. */
export interface RetryRecord {
  readonly attempt: number;
  /** Short text such as `HTTP 503 internal_error` or `ECONNRESET`. */
  readonly outcome: string;
  readonly status?: number | undefined;
  readonly delayMs: number;
  readonly basis: 'hint' | 'backoff';
}

export interface ApiErrorFields {
  readonly message: string;
  /** HTTP status, when a response arrived. */
  readonly status?: number | undefined;
  /** The envelope's `error.code`, when the server sent one. */
  readonly code?: string | undefined;
  /** The server's `error.message`, verbatim (Polish). */
  readonly serverMessage?: string | undefined;
  readonly requestId?: string | undefined;
  readonly method: string;
  /** Relative to `{base_url}`, without a query. */
  readonly path: string;
  readonly host: string;
  readonly keyAlias?: string | undefined;
  readonly keyHint?: string | undefined;
  readonly tenant?: string | undefined;
  readonly attempts: number;
  readonly retryHistory: readonly RetryRecord[];
  /** Whether the same call may succeed later (it was retryable, but retries or time ran out). */
  readonly retryable: boolean;
  /** Why the client stopped trying, e.g. `not_retryable`, `retries_exhausted`. */
  readonly stopReason?: string | undefined;
  /** The start of a body that was not the API envelope (a proxy's HTML page), key scrubbed. */
  readonly bodyExcerpt?: string | undefined;
  readonly cause?: unknown;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;
  readonly requestId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly host: string;
  readonly keyAlias: string | undefined;
  readonly keyHint: string | undefined;
  readonly tenant: string | undefined;
  readonly attempts: number;
  readonly retryHistory: readonly RetryRecord[];
  readonly retryable: boolean;
  readonly stopReason: string | undefined;
  readonly bodyExcerpt: string | undefined;

  constructor(fields: ApiErrorFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    Object.defineProperty(this, BRAND, { value: true });
    this.status = fields.status;
    this.code = fields.code;
    this.serverMessage = fields.serverMessage;
    this.requestId = fields.requestId;
    this.method = fields.method;
    this.path = fields.path;
    this.host = fields.host;
    this.keyAlias = fields.keyAlias;
    this.keyHint = fields.keyHint;
    this.tenant = fields.tenant;
    this.attempts = fields.attempts;
    this.retryHistory = fields.retryHistory;
    this.retryable = fields.retryable;
    this.stopReason = fields.stopReason;
    this.bodyExcerpt = fields.bodyExcerpt;
  }

  /** Plain fields for logs; never a header or a key. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [field, value] of Object.entries(this)) if (value !== undefined) out[field] = value;
    return out;
  }
}

/** 401, or `unauthorized`: the key was not accepted. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}

/** 403: the key is valid but may not make this call. */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}

/** 403 `tenant_key_tenant_mismatch`: a tenant key used for another tenant. */
export class TenantMismatchError extends PermissionDeniedError {
  override name = 'TenantMismatchError';
}

/** 403 `insufficient_scope`: the key's scope does not cover the resource. */
export class InsufficientScopeError extends PermissionDeniedError {
  override name = 'InsufficientScopeError';
}

export interface RateLimitFields extends ApiErrorFields {
  /** How long the server asked to wait; set when a hint was sent (reschedule after it). */
  readonly retryAfterMs?: number | undefined;
  readonly limit?: number | undefined;
  readonly remaining?: number | undefined;
  readonly resetMs?: number | undefined;
}

/** 404: no such path or tenant (or the API hides a resource the key may not see). */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}

/** 429, after retries, or at once when the asked wait is too long for this call. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  readonly retryAfterMs: number | undefined;
  readonly limit: number | undefined;
  readonly remaining: number | undefined;
  readonly resetMs: number | undefined;
  constructor(fields: RateLimitFields) {
    super(fields);
    this.retryAfterMs = fields.retryAfterMs;
    this.limit = fields.limit;
    this.remaining = fields.remaining;
    this.resetMs = fields.resetMs;
  }
}

/** 5xx (and 408): the server failed. */
export class ServerError extends ApiError {
  override name = 'ServerError';
}

export interface ConnectionFields extends ApiErrorFields {
  /** Node/undici code such as `ECONNRESET`. */
  readonly networkCode: string;
}

/** No HTTP response: refused, reset, DNS, TLS. */
export class ConnectionError extends ApiError {
  override name = 'ConnectionError';
  readonly networkCode: string;
  constructor(fields: ConnectionFields) {
    super(fields);
    this.networkCode = fields.networkCode;
  }
}

export type TimeoutScope = 'attempt' | 'total';

export interface TimeoutFields extends ApiErrorFields {
  /** `attempt`: one try ran out of `attemptTimeoutMs`; `total`: the call ran out of `totalTimeoutMs`. */
  readonly scope: TimeoutScope;
  readonly phase: TimeoutPhase | 'waiting';
  /** The size of the budget that ran out (`attemptTimeoutMs`, `totalTimeoutMs` or `connectTimeoutMs`). */
  readonly timeoutMs: number;
  /** Time the call spent waiting between attempts (backoffs and rate-limit pauses). */
  readonly waitedMs?: number | undefined;
  /** Time from the start of the call to this error, waits included (for `scope: 'total'`, about `timeoutMs`). */
  readonly elapsedMs?: number | undefined;
}

export class TimeoutError extends ApiError {
  override name = 'TimeoutError';
  readonly scope: TimeoutScope;
  readonly phase: TimeoutPhase | 'waiting';
  readonly timeoutMs: number;
  readonly waitedMs: number;
  readonly elapsedMs: number | undefined;
  constructor(fields: TimeoutFields) {
    super(fields);
    this.scope = fields.scope;
    this.phase = fields.phase;
    this.timeoutMs = fields.timeoutMs;
    this.waitedMs = fields.waitedMs ?? 0;
    this.elapsedMs = fields.elapsedMs;
  }
}

export interface EnvelopeFields extends ApiErrorFields {
  readonly problem: EnvelopeProblem | 'body_too_large';
  readonly detail: string;
}

/** A response that is not the API's envelope (or `ok` contradicts the status). Not retried. */
export class EnvelopeError extends ApiError {
  override name = 'EnvelopeError';
  readonly problem: EnvelopeProblem | 'body_too_large';
  readonly detail: string;
  constructor(fields: EnvelopeFields) {
    super(fields);
    this.problem = fields.problem;
    this.detail = fields.detail;
  }
}

export interface ParseFields extends ApiErrorFields {
  /** The item's position in the list, or undefined when the whole `data` was checked. */
  readonly index: number | undefined;
  /** What the validator said, shortened; never the item itself. */
  readonly issue: string;
}

/** A success whose `data` (or one list item) failed the `parse` hook you gave. Not retried. */
export class ParseError extends ApiError {
  override name = 'ParseError';
  readonly index: number | undefined;
  readonly issue: string;
  constructor(fields: ParseFields) {
    super(fields);
    this.index = fields.index;
    this.issue = fields.issue;
  }
}

/** Why the client stopped following `Link: rel="next"`. */
export type PaginationProblem = 'off_origin' | 'outside_base_path' | 'unsafe_link' | 'loop' | 'page_cap';

export interface PaginationFields extends ApiErrorFields {
  readonly problem: PaginationProblem;
  /** The next link as the server sent it (shortened), when one was refused. */
  readonly link: string | undefined;
  /** Pages read before stopping. */
  readonly pages: number;
}

/** The server's next-page link was refused (another origin, a loop) or the page cap was reached. */
export class PaginationError extends ApiError {
  override name = 'PaginationError';
  readonly problem: PaginationProblem;
  readonly link: string | undefined;
  readonly pages: number;
  constructor(fields: PaginationFields) {
    super(fields);
    this.problem = fields.problem;
    this.link = fields.link;
    this.pages = fields.pages;
  }
}

/** Each class's parent, by name: how the guards walk the tree without `instanceof`. */
const PARENT: Readonly<Record<string, string>> = {
  AuthenticationError: 'ApiError',
  PermissionDeniedError: 'ApiError',
  TenantMismatchError: 'PermissionDeniedError',
  InsufficientScopeError: 'PermissionDeniedError',
  NotFoundError: 'ApiError',
  RateLimitError: 'ApiError',
  ServerError: 'ApiError',
  ConnectionError: 'ApiError',
  TimeoutError: 'ApiError',
  EnvelopeError: 'ApiError',
  ParseError: 'ApiError',
  PaginationError: 'ApiError',
};

function isKind(value: unknown, kind: string): boolean {
  if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[BRAND] !== true) return false;
  let name: string | undefined = (value as { name?: unknown }).name as string | undefined;
  for (let depth = 0; name !== undefined && depth < 4; depth += 1) {
    if (name === kind) return true;
    name = PARENT[name];
  }
  return false;
}

export const isApiError = (e: unknown): e is ApiError => isKind(e, 'ApiError');
export const isAuthenticationError = (e: unknown): e is AuthenticationError => isKind(e, 'AuthenticationError');
export const isPermissionDeniedError = (e: unknown): e is PermissionDeniedError => isKind(e, 'PermissionDeniedError');
export const isTenantMismatchError = (e: unknown): e is TenantMismatchError => isKind(e, 'TenantMismatchError');
export const isInsufficientScopeError = (e: unknown): e is InsufficientScopeError => isKind(e, 'InsufficientScopeError');
export const isNotFoundError = (e: unknown): e is NotFoundError => isKind(e, 'NotFoundError');
export const isRateLimitError = (e: unknown): e is RateLimitError => isKind(e, 'RateLimitError');
export const isServerError = (e: unknown): e is ServerError => isKind(e, 'ServerError');
export const isConnectionError = (e: unknown): e is ConnectionError => isKind(e, 'ConnectionError');
export const isTimeoutError = (e: unknown): e is TimeoutError => isKind(e, 'TimeoutError');
export const isEnvelopeError = (e: unknown): e is EnvelopeError => isKind(e, 'EnvelopeError');
export const isParseError = (e: unknown): e is ParseError => isKind(e, 'ParseError');
export const isPaginationError = (e: unknown): e is PaginationError => isKind(e, 'PaginationError');
