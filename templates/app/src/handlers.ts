/**
 * What this integration does when the API refuses a call: 401, 403 and 429 decided in this
 * one file. The client calls a handler once per final error and then throws it; `nextStep`
 * turns any error into the one thing to do about it, so callers branch on a union, not on
 * message text. Edit here to page someone, pause a job, or reschedule.
 */
import {
  type ClientLogger,
  type ErrorHandlers,
  consoleLogger,
  defaultErrorHandlers,
  isApiError,
  isAuthenticationError,
  isPermissionDeniedError,
  isRateLimitError,
  isTenantMismatchError,
} from './repair-service/client/index.js';

export type NextStep =
  | { readonly kind: 'fix_key'; readonly why: string }
  | { readonly kind: 'fix_tenant'; readonly why: string }
  | { readonly kind: 'request_scope'; readonly why: string }
  | { readonly kind: 'retry_later'; readonly afterMs: number | undefined; readonly why: string }
  | { readonly kind: 'investigate'; readonly why: string };

function said(error: { status: number | undefined; code: string | undefined }): string {
  return `${error.status ?? '-'} ${error.code ?? '(no code)'}`;
}

/** The action an error calls for. Classification is by error class (status + code), never message text. */
export function nextStep(error: unknown): NextStep {
  if (isAuthenticationError(error)) return { kind: 'fix_key', why: `${said(error)}: the key was not accepted; check it is current and matches this environment` };
  if (isTenantMismatchError(error)) return { kind: 'fix_tenant', why: `${said(error)}: the key is assigned to another tenant than "${error.tenant ?? '?'}"` };
  if (isPermissionDeniedError(error)) return { kind: 'request_scope', why: `${said(error)}: the key may not call ${error.path}; ask for a key whose scope covers it` };
  if (isRateLimitError(error)) return { kind: 'retry_later', afterMs: error.retryAfterMs, why: `${said(error)}: rate limited after ${error.attempts} attempt(s)` };
  if (isApiError(error)) return { kind: 'investigate', why: `${error.name}: ${error.message}` };
  return { kind: 'investigate', why: error instanceof Error ? error.message : String(error) };
}

export interface HandlerHooks {
  /** Called after the log line for 401 and 403; e.g. disable the job until a human looks. */
  readonly onNeedsAttention?: (step: NextStep) => void | Promise<void>;
  /** Called for 429; e.g. reschedule after `afterMs`. */
  readonly onBackOff?: (afterMs: number | undefined) => void | Promise<void>;
}

/** The handlers passed to `createClient`: the client's actionable log lines plus our hooks. */
export function createErrorHandlers(logger: ClientLogger = consoleLogger(), hooks: HandlerHooks = {}): ErrorHandlers {
  const base = defaultErrorHandlers(logger);
  return {
    async onAuthError(error, ctx) {
      await base.onAuthError(error, ctx);
      await hooks.onNeedsAttention?.(nextStep(error));
    },
    async onTenantMismatch(error, ctx) {
      await base.onTenantMismatch(error, ctx);
      await hooks.onNeedsAttention?.(nextStep(error));
    },
    async onInsufficientScope(error, ctx) {
      await base.onInsufficientScope(error, ctx);
      await hooks.onNeedsAttention?.(nextStep(error));
    },
    async onRateLimited(error, ctx) {
      await base.onRateLimited(error, ctx);
      await hooks.onBackOff?.(error.retryAfterMs);
    },
  };
}
