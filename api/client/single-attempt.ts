/**
 * The client's second entry: one HTTP attempt, no retries, never throws. For code that must see
 * exactly what the server answered (a health check, a diagnosis, the checklist).
 */
export type {
  AttemptFailure,
  AttemptRequest,
  AttemptResponse,
  AttemptResult,
  AttemptTimings,
} from './attempt.js';
export type { TimeoutPhase, TransportFailure } from './attempt.js';
export { answerKind, sendAttempt } from './attempt.js';
export { ApiKey, keyHint, redactSecrets, scrubKeyEchoes } from './api-key.js';
export { proxyFor } from './client.js';
export { type RateLimitInfo, type RetryHint, parseRateLimitInfo, parseRetryHint } from './retry.js';
