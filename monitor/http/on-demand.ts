/**
 * On-demand probes (`/probe`) spend the same quota as the scheduled ones, so they are paced per
 * key: at most one per `http.onDemandInterval`, and none while the key waits out a server's
 * Retry-After (the hold the scheduled probes honour, `probe/politeness.ts`). The gate is pure;
 * the limiter only remembers when each key was last let through.
 */

export type OnDemandGate =
  { readonly ok: true } | { readonly ok: false; readonly reason: 'interval' | 'retry_after'; readonly retryAfterMs: number };

/** The server's hold first: it is the API asking, the interval is only ours. */
export function onDemandGate(lastMs: number | undefined, nowMs: number, intervalMs: number, heldMs: number): OnDemandGate {
  if (heldMs > 0) return { ok: false, reason: 'retry_after', retryAfterMs: heldMs };
  const waitMs = lastMs === undefined ? 0 : lastMs + intervalMs - nowMs;
  return waitMs > 0 ? { ok: false, reason: 'interval', retryAfterMs: waitMs } : { ok: true };
}

export interface OnDemandLimiter {
  /** Decides and, when it lets the probe through, records it at once (so parallel calls cannot all pass). */
  admit(key: string, nowMs: number, intervalMs: number, heldMs: number): OnDemandGate;
  /** Forgets keys no longer configured. */
  retain(live: ReadonlySet<string>): void;
}

export function createOnDemandLimiter(): OnDemandLimiter {
  const last = new Map<string, number>();
  return {
    admit(key, nowMs, intervalMs, heldMs) {
      const gate = onDemandGate(last.get(key), nowMs, intervalMs, heldMs);
      if (gate.ok) last.set(key, nowMs);
      return gate;
    },
    retain(live) {
      for (const key of last.keys()) if (!live.has(key)) last.delete(key);
    },
  };
}

/** `Retry-After` in whole seconds, rounded up so a client that obeys it is let through. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
