/**
 * 429 politeness: after a 429 with a hint, the key is held until the hint passes, so the
 * monitor never hammers a key the server asked to slow down. State lives in the instance
 * the service owns, keyed by target and key alias.
 */

export interface Politeness {
  /** Milliseconds the key must still wait; 0 when it may be used. */
  remainingMs(target: string, keyAlias: string, nowMs: number): number;
  hold(target: string, keyAlias: string, untilMs: number): void;
  /** Drops holds for keys no longer configured. */
  retain(live: ReadonlySet<string>): void;
}

export function holdKey(target: string, keyAlias: string): string {
  return `${target}\u0000${keyAlias}`;
}

export function createPoliteness(): Politeness {
  const until = new Map<string, number>();
  return {
    remainingMs(target, keyAlias, nowMs) {
      const end = until.get(holdKey(target, keyAlias));
      return end === undefined ? 0 : Math.max(0, end - nowMs);
    },
    hold(target, keyAlias, untilMs) {
      const key = holdKey(target, keyAlias);
      until.set(key, Math.max(until.get(key) ?? 0, untilMs));
    },
    retain(live) {
      for (const key of until.keys()) if (!live.has(key)) until.delete(key);
    },
  };
}
