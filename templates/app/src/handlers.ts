/**
 * What this integration does when the API refuses a call: 401, 403 and 429 decided in this
 * one file. The client calls a handler once per final error and then throws it; `nextStep`
 * (the client's) turns any error into the one thing to do about it, so callers branch on a
 * union, not on message text. Edit here to page someone, pause a job, or reschedule.
 */
import { type ClientLogger, type ErrorHandlers, type NextStep, consoleLogger, defaultErrorHandlers, nextStep } from './repair-service/client/index.js';

export { type NextStep, nextStep };

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
