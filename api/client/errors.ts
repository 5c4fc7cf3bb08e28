/**
 * The client's one error tree, in openai-node's shape: `ApiError` carries every field, each
 * subclass only names a case, and `kind` says which with the contract's words (`ANSWER_KINDS`),
 * so code can `switch (error.kind)`. Guards check a shared brand plus `kind`, so they also work
 * on errors from another copy of this folder (two libraries each shipping one).
 */
import type { AnswerKind, EnvelopeProblem } from '../contract/index.js';

const BRAND = Symbol.for('repair-service.client.ApiError');

/**
 * Every answer kind but `ok`, plus the two failures that are not the server's answer: your
 * `parse` hook refused the data, or pagination stopped (the opt-in `paginate` module).
 */
export type ErrorKind = Exclude<AnswerKind, 'ok'> | 'parse_failed' | 'pagination_stopped';

/** One failed attempt that was retried. */
export interface RetryRecord {
  readonly attempt: number;
  /** Short text such as `HTTP 503 internal_error` or `ECONNRESET`. */
  readonly outcome: string;
  readonly status: number | undefined;
  readonly delayMs: number;
  readonly basis: 'hint' | 'backoff';
}

export type TimeoutPhase = 'connect' | 'headers' | 'body';
export type PaginationProblem = 'off_origin' | 'outside_base_path' | 'unsafe_link' | 'loop' | 'page_cap';

/** What every error carries; the optional groups are set for the kinds they belong to. */
export interface ApiErrorFields {
  readonly kind: ErrorKind;
  readonly message: string;
  /** HTTP status, when a response arrived. */
  readonly status?: number | undefined;
  /** The envelope's `error.code` (bounded, printable), when the server sent one. */
  readonly code?: string | undefined;
  /** The server's `error.message` as sent (Polish), bounded and printable. */
  readonly serverMessage?: string | undefined;
  readonly requestId?: string | undefined;
  /** The W3C trace id every attempt of the call was sent with (`traceparent`). */
  readonly traceId?: string | undefined;
  readonly method: string;
  /** Relative to `{base_url}`, without a query; the tenant slug included. */
  readonly path: string;
  readonly host: string;
  readonly keyAlias?: string | undefined;
  readonly keyHint?: string | undefined;
  readonly tenant?: string | undefined;
  readonly attempts: number;
  readonly retryHistory?: readonly RetryRecord[];
  /** Whether the same call may succeed later (it was retryable, but retries or time ran out). */
  readonly retryable?: boolean;
  /** Why the client stopped trying: `not_retryable`, `retries_exhausted`, `hint_above_max`, ... */
  readonly stopReason?: string | undefined;
  /** The start of a body that was not the API envelope (a proxy's HTML page), key scrubbed. */
  readonly bodyExcerpt?: string | undefined;
  /** 429: how long the server asked to wait, and its limit, remaining and reset when it said. */
  readonly retryAfterMs?: number | undefined;
  readonly limit?: number | undefined;
  readonly remaining?: number | undefined;
  readonly resetMs?: number | undefined;
  /** No response: Node's or undici's code, e.g. `ECONNRESET`, `CERT_HAS_EXPIRED`. */
  readonly networkCode?: string | undefined;
  /** Timeout: which budget ran out (`attempt` or `total`), where, its size, waits and time taken. */
  readonly scope?: 'attempt' | 'total' | undefined;
  readonly phase?: TimeoutPhase | 'waiting' | undefined;
  readonly timeoutMs?: number | undefined;
  readonly waitedMs?: number | undefined;
  readonly elapsedMs?: number | undefined;
  /** Not the envelope: what is wrong with it. */
  readonly problem?: EnvelopeProblem | 'body_too_large' | PaginationProblem | undefined;
  readonly detail?: string | undefined;
  /** Parse hook: the item's position (undefined when the whole `data` was checked) and what it said. */
  readonly index?: number | undefined;
  readonly issue?: string | undefined;
  /** Pagination: the refused next link (shortened) and the pages read. */
  readonly link?: string | undefined;
  readonly pages?: number | undefined;
  readonly cause?: unknown;
}

/** The fields, typed on the class by declaration merging (each is set by the constructor). */
export interface ApiError extends Readonly<Omit<ApiErrorFields, 'message' | 'cause' | 'retryHistory' | 'retryable'>> {
  readonly retryHistory: readonly RetryRecord[];
  readonly retryable: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface types the fields Object.assign sets
export class ApiError extends Error {
  constructor({ message, cause, ...fields }: ApiErrorFields) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    Object.defineProperty(this, BRAND, { value: true });
    Object.assign(this, { retryHistory: [], retryable: false }, fields);
  }

  /** The one factory: the class follows `kind` (and `code` for refusals). */
  static from(fields: ApiErrorFields): ApiError {
    return new (CLASS_OF[fields.kind] ?? ApiError)(fields);
  }

  /** Plain fields for logs; never a header or a key. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [field, value] of Object.entries(this)) if (value !== undefined) out[field] = value;
    return out;
  }
}

export class AuthenticationError extends ApiError {}
export class PermissionDeniedError extends ApiError {}
export class TenantMismatchError extends PermissionDeniedError {}
export class InsufficientScopeError extends PermissionDeniedError {}
export class NotFoundError extends ApiError {}
export class RateLimitError extends ApiError {}
export class ServerError extends ApiError {}
export class ConnectionError extends ApiError {}
export class TimeoutError extends ApiError {}
export class EnvelopeError extends ApiError {}
export class ParseError extends ApiError {}
export class PaginationError extends ApiError {}

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
  pagination_stopped: PaginationError,
};

function guard<E extends ApiError>(...kinds: ErrorKind[]): (value: unknown) => value is E {
  return (value): value is E =>
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true && (kinds.length === 0 || kinds.includes((value as ApiError).kind));
}

export const isApiError = guard<ApiError>();
export const isAuthenticationError = guard<AuthenticationError>('unauthorized');
export const isPermissionDeniedError = guard<PermissionDeniedError>('forbidden', 'tenant_mismatch', 'insufficient_scope');
export const isTenantMismatchError = guard<TenantMismatchError>('tenant_mismatch');
export const isInsufficientScopeError = guard<InsufficientScopeError>('insufficient_scope');
export const isNotFoundError = guard<NotFoundError>('not_found');
export const isRateLimitError = guard<RateLimitError>('rate_limited');
export const isServerError = guard<ServerError>('server_error');
export const isConnectionError = guard<ConnectionError>('connection_error', 'tls_error');
export const isTimeoutError = guard<TimeoutError>('timeout');
export const isEnvelopeError = guard<EnvelopeError>('invalid_envelope');
export const isParseError = guard<ParseError>('parse_failed');
export const isPaginationError = guard<PaginationError>('pagination_stopped');
