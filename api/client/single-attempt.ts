/**
 * The client's second entry: one HTTP attempt, no retries, never throws. For code that must see
 * exactly what the server answered (a health check, a diagnosis, the checklist) rather than what
 * a retrying call ends with. Applications use `./index.ts`.
 */
export {
  type AttemptFailure,
  type AttemptRequest,
  type AttemptResponse,
  type AttemptResult,
  type AttemptTimings,
  type TimeoutPhase,
  type TransportFailure,
  DEFAULT_MAX_BODY_BYTES,
  ERROR_BODY_BYTES,
  answerKind,
  sendAttempt,
} from './attempt.js';
export { ApiKey, keyHint, redactSecrets } from './api-key.js';
export { KEY_ECHO_MIN_RUN, scrubKeyEchoes } from './key-echo.js';
export { proxyFor } from './proxy.js';
export { type RateLimitInfo, type RetryHint, parseRateLimitInfo, parseRetryHint } from './retry-hints.js';
