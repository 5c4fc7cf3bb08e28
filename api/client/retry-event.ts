/** What `onRetry` and the retry log line are told before the client sleeps and tries again. */
import type { ApiError } from './errors.js';

export interface RetryEvent {
  readonly method: string;
  readonly path: string;
  /** The attempt that failed (1-based); the next one is `attempt + 1`. */
  readonly attempt: number;
  readonly delayMs: number;
  readonly basis: 'hint' | 'backoff';
  /** What the attempt ended with, as the error it would have been. */
  readonly error: ApiError;
}
