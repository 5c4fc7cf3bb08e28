/**
 * One error tree, in openai-node's shape: `ApiError` carries every field, a subclass names a case.
 * Guards check a shared brand plus `kind`, so they know errors from another copy of this folder
 * too.
 */
import type { AnswerKind } from '../contract/index.js';
import type { TimeoutPhase } from './attempt.js';

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

/**
 * What every error carries; the groups after `stopReason` are set for the kinds they belong to
 * (README.md).
 */
export interface ApiErrorFields {
  readonly kind: ErrorKind;
  readonly message: string;
  readonly status?: number | undefined;
  /** The server's `error.code` and `error.message` (Polish), bounded and printable. */
  readonly code?: string | undefined;
  readonly serverMessage?: string | undefined;
  readonly requestId?: string | undefined;
  readonly traceId?: string | undefined;
  readonly method: string;
  /** Relative to `{base_url}`, without a query. */
  readonly path: string;
  readonly host?: string | undefined;
  readonly keyAlias?: string | undefined;
  readonly keyHint?: string | undefined;
  readonly tenant?: string | undefined;
  readonly attempts: number;
  readonly retryHistory?: readonly RetryRecord[];
  /** Whether the same call may succeed later. */
  readonly retryable?: boolean;
  readonly stopReason?: string | undefined;
  readonly problem?: string | undefined;
  readonly detail?: string | undefined;
  readonly bodyExcerpt?: string | undefined;
  readonly retryAfterMs?: number | undefined;
  readonly limit?: number | undefined;
  readonly remaining?: number | undefined;
  readonly resetMs?: number | undefined;
  readonly networkCode?: string | undefined;
  /** Timeout: which budget ran out, where, its size, the waits and the time taken. */
  readonly scope?: 'attempt' | 'total' | undefined;
  readonly phase?: TimeoutPhase | 'waiting' | undefined;
  readonly timeoutMs?: number | undefined;
  readonly waitedMs?: number | undefined;
  readonly elapsedMs?: number | undefined;
  /**
   * Parse hook: the item's position (undefined for the whole `data`) and what the validator said.
   */
  readonly index?: number | undefined;
  readonly issue?: string | undefined;
  readonly cause?: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the fields, typed on the class by merging: its constructor sets them all
export interface ApiError extends Readonly<
  Omit<ApiErrorFields, 'message' | 'cause' | 'retryHistory' | 'retryable'>
> {
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

export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[BRAND] === true
  );
}

function guard<E extends ApiError>(...kinds: ErrorKind[]): (value: unknown) => value is E {
  return (value): value is E => isApiError(value) && kinds.includes(value.kind);
}

export const isAuthenticationError = guard<AuthenticationError>('unauthorized');
export const isPermissionDeniedError = guard<PermissionDeniedError>(
  'forbidden',
  'tenant_mismatch',
  'insufficient_scope',
);
export const isTenantMismatchError = guard<TenantMismatchError>('tenant_mismatch');
export const isInsufficientScopeError = guard<InsufficientScopeError>('insufficient_scope');
export const isNotFoundError = guard<NotFoundError>('not_found');
export const isRateLimitError = guard<RateLimitError>('rate_limited');
export const isServerError = guard<ServerError>('server_error');
export const isConnectionError = guard<ConnectionError>('connection_error', 'tls_error');
export const isTimeoutError = guard<TimeoutError>('timeout');
export const isEnvelopeError = guard<EnvelopeError>('invalid_envelope');
export const isParseError = guard<ParseError>('parse_failed');
