/**
 * One error tree, in openai-node's shape: `ApiError` holds what every failure has, each subclass
 * the fields its kind always has. Guards check a shared brand plus `kind`, so they know errors
 * from another copy of this folder too.
 */
import type { AnswerKind, EnvelopeProblem } from '../contract/index.js';
import type { TimeoutPhase } from './attempt.js';
import type { RateLimitInfo } from './retry.js';

const BRAND = Symbol.for('repair-service.client.ApiError');

/**
 * Every answer kind but `ok`, plus a refusal by your parse hook (parse.ts) or of a next page
 * (paginate.ts).
 */
export type ErrorKind = Exclude<AnswerKind, 'ok'> | 'parse_failed' | 'pagination_stopped';

export interface RetryRecord {
  readonly attempt: number;
  /** e.g. `HTTP 503 internal_error` or `ECONNRESET`. */
  readonly outcome: string;
  readonly status: number | undefined;
  readonly delayMs: number;
  readonly basis: 'hint' | 'backoff';
}

export class ApiError extends Error {
  declare readonly kind: ErrorKind;
  declare readonly method: string;
  /** Relative to `{base_url}`, without a query. */
  declare readonly path: string;
  declare readonly attempts: number;
  declare readonly retryHistory: readonly RetryRecord[];
  /** Whether the same call may succeed later. */
  declare readonly retryable: boolean;
  declare readonly stopReason?: string | undefined;
  declare readonly host?: string | undefined;
  declare readonly tenant?: string | undefined;
  declare readonly keyAlias?: string | undefined;
  declare readonly keyHint?: string | undefined;
  declare readonly traceId?: string | undefined;
  /** Set when an answer came: its status, `error.code` and `error.message` (Polish), bounded. */
  declare readonly status?: number | undefined;
  declare readonly code?: string | undefined;
  declare readonly serverMessage?: string | undefined;
  declare readonly requestId?: string | undefined;
  /** A body that is not the envelope (a proxy's page), as one short line. */
  declare readonly bodyExcerpt?: string | undefined;

  constructor({ message, cause, ...fields }: ApiErrorFields) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    Object.defineProperty(this, BRAND, { value: true });
    Object.assign(this, { retryHistory: [], retryable: false }, fields);
  }

  static from(fields: ApiErrorFields): AnyApiError {
    return new (CLASS_OF[fields.kind] ?? ApiError)(fields) as AnyApiError;
  }

  /** Plain fields for logs; never a header or a key. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [field, value] of Object.entries(this)) if (value !== undefined) out[field] = value;
    return out;
  }
}

export class AuthenticationError extends ApiError {
  declare readonly kind: 'unauthorized';
  declare readonly status: number;
}
export class PermissionDeniedError extends ApiError {
  declare readonly kind: 'forbidden' | 'tenant_mismatch' | 'insufficient_scope';
  declare readonly status: number;
  declare readonly code: string;
  declare readonly serverMessage: string;
}
export class TenantMismatchError extends PermissionDeniedError {
  declare readonly kind: 'tenant_mismatch';
}
export class InsufficientScopeError extends PermissionDeniedError {
  declare readonly kind: 'insufficient_scope';
}
export class NotFoundError extends ApiError {
  declare readonly kind: 'not_found';
  declare readonly status: number;
  declare readonly code: string;
  declare readonly serverMessage: string;
}
export class RateLimitError extends ApiError {
  declare readonly kind: 'rate_limited';
  declare readonly status: number;
  /** How long to wait: the server's (`hint`), else the 429 policy's next backoff (`backoff`). */
  declare readonly retryAfterMs: number;
  declare readonly retryAfterBasis: 'hint' | 'backoff';
  declare readonly rateLimit: RateLimitInfo;
}
export class ServerError extends ApiError {
  declare readonly kind: 'server_error';
  declare readonly status: number;
}
export class ConnectionError extends ApiError {
  declare readonly kind: 'connection_error' | 'tls_error';
  /** e.g. `ECONNREFUSED`, `CERT_HAS_EXPIRED`. */
  declare readonly networkCode: string;
}
export class TimeoutError extends ApiError {
  declare readonly kind: 'timeout';
  /** Which budget ran out, where, its size, the waits and the time taken. */
  declare readonly scope: 'attempt' | 'total';
  declare readonly phase: TimeoutPhase | 'waiting';
  declare readonly timeoutMs: number;
  declare readonly waitedMs: number;
  declare readonly elapsedMs: number;
}
export class EnvelopeError extends ApiError {
  declare readonly kind: 'invalid_envelope';
  declare readonly problem: EnvelopeProblem | 'body_too_large';
  declare readonly detail: string;
}
export class ParseError extends ApiError {
  declare readonly kind: 'parse_failed';
  declare readonly status: number;
  /** The item's position; undefined for the whole `data`. */
  declare readonly index: number | undefined;
  /** What the validator said. */
  declare readonly issue: string;
}

/** What `isApiError` narrows to: `switch (error.kind)` then narrows to the class and its fields. */
export type AnyApiError =
  | AuthenticationError
  | PermissionDeniedError
  | NotFoundError
  | RateLimitError
  | ServerError
  | ConnectionError
  | TimeoutError
  | EnvelopeError
  | ParseError
  // client_error, redirect (never followed) and paginate.ts's PaginationError
  | (ApiError & {
      readonly kind: 'client_error' | 'redirect' | 'pagination_stopped';
      readonly status: number;
    });

/** An error's fields as its constructor takes them (retry history and `retryable` default). */
export type ApiErrorFields =
  AnyApiError | TenantMismatchError | InsufficientScopeError extends infer E
  ? E extends ApiError
    ? Omit<E, 'name' | 'stack' | 'toJSON' | 'retryHistory' | 'retryable'> &
        Partial<Pick<E, 'retryHistory' | 'retryable'>>
    : never
  : never;

const CLASS_OF: Partial<Record<ErrorKind, new (fields: ApiErrorFields) => ApiError>> = {
  unauthorized: AuthenticationError,
  forbidden: PermissionDeniedError,
  tenant_mismatch: TenantMismatchError,
  insufficient_scope: InsufficientScopeError,
  not_found: NotFoundError,
  rate_limited: RateLimitError,
  server_error: ServerError,
  connection_error: ConnectionError,
  tls_error: ConnectionError,
  timeout: TimeoutError,
  invalid_envelope: EnvelopeError,
  parse_failed: ParseError,
};

export function isApiError(value: unknown): value is AnyApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[BRAND] === true
  );
}

/** By the class `kind` maps to, not `instanceof`: an error of another copy passes too. */
function guard<E extends ApiError>(cls: new (f: ApiErrorFields) => E): (v: unknown) => v is E {
  return (value): value is E => {
    const own = isApiError(value) ? CLASS_OF[value.kind] : undefined;
    return own !== undefined && (own === cls || own.prototype instanceof cls);
  };
}

export const isAuthenticationError = guard(AuthenticationError);
export const isPermissionDeniedError = guard(PermissionDeniedError);
export const isTenantMismatchError = guard(TenantMismatchError);
export const isInsufficientScopeError = guard(InsufficientScopeError);
export const isNotFoundError = guard(NotFoundError);
export const isRateLimitError = guard(RateLimitError);
export const isServerError = guard(ServerError);
export const isConnectionError = guard(ConnectionError);
export const isTimeoutError = guard(TimeoutError);
export const isEnvelopeError = guard(EnvelopeError);
export const isParseError = guard(ParseError);
