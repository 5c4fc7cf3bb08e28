/**
 * One place where a generated project decides what happens on 401, 403 and 429. Handlers
 * are observers: the client calls the matching one once per final error, then throws the
 * error. The defaults log one redacted, actionable line that walks the spec's debugging
 * checklist (host and path, key scope, tenant in the URL vs the key's tenant, status and payload).
 */
import type { AuthenticationError, PermissionDeniedError, RateLimitError, TenantMismatchError } from './errors.js';
import { type ClientLogger, consoleLogger } from './logger.js';

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
}

function who(ctx: ErrorContext): string {
  return `key "${ctx.keyAlias}" (${ctx.keyHint})`;
}

function where(ctx: ErrorContext): string {
  return `${ctx.method} ${ctx.host}${ctx.path}`;
}

function serverSaid(error: { status: number | undefined; code: string | undefined; serverMessage: string | undefined; requestId: string | undefined }): string {
  const id = error.requestId ? `, request id ${error.requestId}` : '';
  const message = error.serverMessage === undefined ? '' : ` "${error.serverMessage}"`;
  return `server answered ${error.status ?? '-'} ${error.code ?? '(no code)'}${message}${id}`;
}

function seconds(ms: number | undefined): string {
  return ms === undefined ? 'unknown' : `${Math.ceil(ms / 1000)} s`;
}

/** The default handlers: one `warn` line each, with what to check next. */
export function defaultErrorHandlers(logger: ClientLogger = consoleLogger()): ErrorHandlers {
  return {
    onAuthError(error, ctx) {
      logger.warn(
        `Repair-Service rejected ${who(ctx)} on ${where(ctx)}: ${serverSaid(error)}. ` +
          `Check: 1) the host and path are right; 2) the key is current and not revoked; ` +
          `3) a test key is used against the test host and a production key against production; ` +
          `4) retry once with curl to rule out the client.`,
        { event: 'auth_error', keyAlias: ctx.keyAlias, status: error.status, code: error.code, requestId: error.requestId },
      );
    },
    onTenantMismatch(error, ctx) {
      logger.warn(
        `Repair-Service refused ${who(ctx)} on ${where(ctx)}: ${serverSaid(error)}. ` +
          `The tenant in the URL ("${ctx.tenant ?? '?'}") is not the tenant this key is assigned to. ` +
          `Check the tenant slug in your config, or use that tenant's key or a platform key.`,
        { event: 'tenant_mismatch', keyAlias: ctx.keyAlias, tenant: ctx.tenant, code: error.code, requestId: error.requestId },
      );
    },
    onInsufficientScope(error, ctx) {
      logger.warn(
        `Repair-Service refused ${who(ctx)} on ${where(ctx)}: ${serverSaid(error)}. ` +
          `The key is valid but not allowed this call: check its scope covers ${ctx.path} ` +
          `(platform paths need a platform key), and that the tenant matches ("${ctx.tenant ?? '-'}").`,
        { event: 'permission_denied', keyAlias: ctx.keyAlias, tenant: ctx.tenant, code: error.code, requestId: error.requestId },
      );
    },
    onRateLimited(error, ctx) {
      logger.warn(
        `Repair-Service rate-limited ${who(ctx)} on ${where(ctx)} after ${error.attempts} attempt(s): ` +
          `${serverSaid(error)}; retry after ${seconds(error.retryAfterMs)}. ` +
          `Reschedule the job after that, and lower the request rate or maxConcurrency for this key.`,
        { event: 'rate_limited', keyAlias: ctx.keyAlias, retryAfterMs: error.retryAfterMs, attempts: error.attempts, requestId: error.requestId },
      );
    },
  };
}
