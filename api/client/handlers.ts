/**
 * One place where a generated project decides what happens on 401, 403, 404 and 429. Handlers
 * are observers: the client calls the matching one once per final error, then throws the
 * error. A handler you pass replaces the default for its case, so nothing is logged for it
 * unless you log it. The defaults log one short line (class, status, code, call, request id,
 * the thing to do); the longer explanation is `nextStep(error).why`.
 */
import { printable } from '../contract/index.js';
import type { ApiError, AuthenticationError, NotFoundError, PermissionDeniedError, RateLimitError, TenantMismatchError } from './errors.js';
import { type ClientLogger, type LoggerLike, consoleLogger, redactingLogger } from './logger.js';
import { nextStep } from './next-step.js';

export interface ErrorContext {
  readonly keyAlias: string;
  /** Last 4 characters of the key at most. */
  readonly keyHint: string;
  readonly tenant: string | undefined;
  readonly host: string;
  readonly method: string;
  readonly path: string;
}

export type ErrorHandler<E> = (error: E, context: ErrorContext) => void | Promise<void>;

export interface ErrorHandlers {
  /** 401 `unauthorized`: the key is invalid, revoked, or from the other environment. */
  readonly onAuthError: ErrorHandler<AuthenticationError>;
  /** 403 `tenant_key_tenant_mismatch`. */
  readonly onTenantMismatch: ErrorHandler<TenantMismatchError>;
  /** Any other 403 (`insufficient_scope`, `platform_key_required`, ...): the key may not make this call. */
  readonly onInsufficientScope: ErrorHandler<PermissionDeniedError>;
  /** 429 after retries, or a wait too long to take within the call. */
  readonly onRateLimited: ErrorHandler<RateLimitError>;
  /** 404: no such path or tenant. */
  readonly onNotFound?: ErrorHandler<NotFoundError>;
}

/** Longest log line the defaults write; long paths and request ids are shortened to fit. */
export const HANDLER_LINE_MAX = 160;

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 1) / 2);
  return `${text.slice(0, half)}…${text.slice(text.length - (max - 1 - half))}`;
}

/**
 * `TenantMismatchError 403 tenant_key_tenant_mismatch GET /tenants/x/clients (request r-1): use that tenant's key or the right slug`.
 * The code and request id are the server's: printed with control characters escaped.
 */
export function handlerLine(error: ApiError): string {
  const action = nextStep(error).action;
  const head = `${error.name} ${error.status ?? '-'} ${clip(error.code ?? '-', 40)} ${error.method}`;
  const id = error.requestId ? ` (request ${clip(error.requestId, 40)})` : '';
  const room = HANDLER_LINE_MAX - head.length - id.length - action.length - 4;
  const line = `${head} ${clip(error.path, Math.max(12, room))}${id}: ${action}`;
  const shown = printable(line);
  return shown.length > HANDLER_LINE_MAX ? `${shown.slice(0, HANDLER_LINE_MAX - 1)}…` : shown;
}

function fieldsOf(error: ApiError, ctx: ErrorContext, event: string): Record<string, unknown> {
  return { event, errorClass: error.name, status: error.status, code: error.code, method: error.method, path: error.path, requestId: error.requestId, keyAlias: ctx.keyAlias, tenant: ctx.tenant, nextStep: nextStep(error).kind };
}

/** The default handlers: one short `warn` line each. `logger` may be any logger the client accepts. */
export function defaultErrorHandlers(logger: LoggerLike = consoleLogger()): Required<ErrorHandlers> {
  const log: ClientLogger = redactingLogger(logger, []);
  const warn = (event: string) => (error: ApiError, ctx: ErrorContext) => log.warn(handlerLine(error), fieldsOf(error, ctx, event));
  return {
    onAuthError: warn('auth_error'),
    onTenantMismatch: warn('tenant_mismatch'),
    onInsufficientScope: warn('permission_denied'),
    onRateLimited: (error, ctx) => log.warn(handlerLine(error), { ...fieldsOf(error, ctx, 'rate_limited'), retryAfterMs: error.retryAfterMs, attempts: error.attempts }),
    onNotFound: warn('not_found'),
  };
}
