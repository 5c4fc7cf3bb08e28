/**
 * How this toolkit meets a 429, named once. A wait the server names (Retry-After and its kin) is
 * never shortened; what differs is how long each use can afford to wait:
 * - the client retries after the hint, or backs off from `backoffMs` when none came, and pauses
 *   all its calls for at most `maxHoldMs`;
 * - the monitor holds a key's probes for the hint, at most `maxHoldMs` (its `maxRateLimitHold`);
 * - a one-off probe of a customer's key waits a hint out once, at most `probeMaxWaitMs` a run.
 */
export const RATE_LIMIT_POLICY = {
  /** A 429 without a hint: from 1 s, doubling, at most 16 s (harder than other retryable answers). */
  backoffMs: { baseMs: 1000, capMs: 16_000 },
  /** A longer hint (`Retry-After: 1e15` from a broken proxy) must not silence a caller for good. */
  maxHoldMs: 60 * 60 * 1000,
  /** The probe's default `--max-wait`: it may share the customer's quota with a live integration. */
  probeMaxWaitMs: 10_000,
} as const;
