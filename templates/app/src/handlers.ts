/**
 * What this integration does when the API refuses a call: 401, 403 and 429 are decided in this
 * one file. The client throws every failure and logs none, so `handleApiError` is the one place
 * that reports it: one line with the whole path, then what to do. Edit it to page someone, pause
 * a job, or reschedule.
 */
import {
  type AuthenticationError,
  type NextStep,
  type PermissionDeniedError,
  type RateLimitError,
  isApiError,
  nextStep,
} from './repair-service/client/index.js';
import { printable } from './repair-service/contract/index.js';

export { type NextStep, nextStep };

export interface HandlerHooks {
  /** Where the one line goes; `console.error` by default. */
  readonly report?: (line: string) => void;
  /** 401 and 403: the key, its tenant or its scope needs a person; e.g. disable the job. */
  readonly onNeedsAttention?: (step: NextStep, error: AuthenticationError | PermissionDeniedError) => void | Promise<void>;
  /** 429: e.g. reschedule after `afterMs` (the server's wait, else the client's next backoff: `error.retryAfterBasis`). */
  readonly onBackOff?: (afterMs: number, error: RateLimitError) => void | Promise<void>;
}

/** Reports `error` once and runs the hook for its case; returns what to do next. */
export async function handleApiError(error: unknown, hooks: HandlerHooks = {}): Promise<NextStep> {
  const step = nextStep(error);
  const line = isApiError(error) ? `${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}: ${step.action}` : step.why;
  // The message quotes the server (code, Polish text): printable() escapes what would drive a terminal.
  (hooks.report ?? console.error)(printable(line));
  if (!isApiError(error)) return step;
  if (error.kind === 'rate_limited') await hooks.onBackOff?.(error.retryAfterMs, error);
  else if (error.kind === 'unauthorized' || error.kind === 'forbidden' || error.kind === 'tenant_mismatch' || error.kind === 'insufficient_scope') {
    await hooks.onNeedsAttention?.(step, error);
  }
  return step;
}
