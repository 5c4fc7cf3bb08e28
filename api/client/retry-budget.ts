/**
 * A token bucket for retries, shared by every call of one client: in an outage each call
 * would retry on its own and multiply the load; the bucket caps retries per second overall.
 * First attempts never need a token.
 */

export interface RetryBudgetOptions {
  /** Retries that may happen in a burst. */
  readonly capacity: number;
  /** Tokens added back per second. */
  readonly refillPerSecond: number;
}

export const DEFAULT_RETRY_BUDGET: RetryBudgetOptions = { capacity: 20, refillPerSecond: 2 };

export interface RetryBudget {
  /** Takes one token if there is one; `now` in milliseconds. */
  tryTake(now: number): boolean;
  available(now: number): number;
}

export function createRetryBudget(options: RetryBudgetOptions, startedAt: number): RetryBudget {
  let tokens = options.capacity;
  let updatedAt = startedAt;
  const refill = (now: number): void => {
    const elapsed = Math.max(0, now - updatedAt);
    tokens = Math.min(options.capacity, tokens + (elapsed / 1000) * options.refillPerSecond);
    updatedAt = Math.max(updatedAt, now);
  };
  return {
    tryTake(now) {
      refill(now);
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    available(now) {
      refill(now);
      return Math.floor(tokens);
    },
  };
}

/** For `retryBudget: false`: no client-wide limit. */
export function unlimitedRetryBudget(): RetryBudget {
  return { tryTake: () => true, available: () => Number.POSITIVE_INFINITY };
}
