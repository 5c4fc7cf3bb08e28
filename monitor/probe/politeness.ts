/**
 * 429 politeness: after a 429 with a hint, the key (target and alias) is held until the hint
 * passes. A hold is capped (`maxRateLimitHold`, 1 h by default): a `Retry-After` of years would
 * leave a monitor that went blind without saying so; past the cap a server that still means it
 * answers 429 again, and the key is held again.
 *
 * A key is `throttled` from its first 429 until another answer comes a whole schedule interval
 * after its last 429 (a storm on one tenant leaves the key's other reads answering in between:
 * they do not end it). Meanwhile its probes of a round go one at a time (a second request cannot
 * leave before the first one's 429 says to wait).
 */

/** When the hold was capped: what the server asked for, and the cap it got instead. */
export interface CappedHold {
  readonly askedMs: number;
  readonly capMs: number;
}

export type Politeness = ReturnType<typeof createPoliteness>;

export function holdKey(target: string, keyAlias: string): string {
  return `${target}\u0000${keyAlias}`;
}

/** How long to hold a key the server asked to wait `askedMs`: at most `capMs`. Pure. */
export function cappedHold(askedMs: number, capMs: number): { readonly holdMs: number; readonly capped: CappedHold | undefined } {
  return askedMs > capMs ? { holdMs: capMs, capped: { askedMs, capMs } } : { holdMs: askedMs, capped: undefined };
}

const UNITS = [
  [365.25 * 24 * 3_600_000, 'years'],
  [24 * 3_600_000, 'days'],
  [3_600_000, 'h'],
  [60_000, 'min'],
] as const;

/** A wait for people: "90 s", "45 min", "1 h", "31709791 years" (whole units: one exactly, or two and more, rounded down). */
function humanWait(ms: number): string {
  for (const [size, name] of UNITS) if (ms >= 2 * size || ms === size) return `${Math.floor(ms / size)} ${name}`;
  return `${Math.ceil(ms / 1000)} s`;
}

/** What the status page, /probes.json and the log say about a capped hold. */
export function capNote(c: CappedHold): string {
  return `the server asked to wait ${humanWait(c.askedMs)}; the hold is capped at ${humanWait(c.capMs)} (maxRateLimitHold)`;
}

export function createPoliteness() {
  const holds = new Map<string, { until: number; capped: CappedHold | undefined; last429: number }>();
  /** The hold in force, with what the server asked when it was capped. */
  const state = (target: string, keyAlias: string, nowMs: number): { remainingMs: number; capped: CappedHold | undefined } | undefined => {
    const h = holds.get(holdKey(target, keyAlias));
    return h === undefined || h.until <= nowMs ? undefined : { remainingMs: h.until - nowMs, capped: h.capped };
  };
  return {
    /** Milliseconds the key must still wait; 0 when it may be used. */
    remainingMs: (target: string, keyAlias: string, nowMs: number): number => state(target, keyAlias, nowMs)?.remainingMs ?? 0,
    state,
    /** After a 429, held `holdMs` (0 when it gave no hint); true when it begins the key's throttled stretch. */
    hold(target: string, keyAlias: string, nowMs: number, holdMs: number, capped?: CappedHold): boolean {
      const key = holdKey(target, keyAlias);
      const current = holds.get(key);
      const untilMs = nowMs + holdMs;
      if (current === undefined || untilMs > current.until) holds.set(key, { until: untilMs, capped, last429: nowMs });
      else current.last429 = nowMs;
      return current === undefined;
    },
    /** After another answer: ends the throttled stretch when no hold is left and the last 429 is `quietMs` old; true when it did. */
    settle(target: string, keyAlias: string, nowMs: number, quietMs: number): boolean {
      const key = holdKey(target, keyAlias);
      const h = holds.get(key);
      // An answer to a request sent before the 429 came back does not end a hold in force.
      if (h === undefined || h.until > nowMs || nowMs - h.last429 < quietMs) return false;
      return holds.delete(key);
    },
    /** A 429 came and no other answer since. */
    throttled: (target: string, keyAlias: string): boolean => holds.has(holdKey(target, keyAlias)),
    /** A lower cap after a reload shortens the holds already in force; a higher one never lengthens them. */
    cap(nowMs: number, capMs: number): void {
      for (const h of holds.values()) {
        if (h.until <= nowMs + capMs) continue;
        h.capped = { askedMs: h.capped?.askedMs ?? h.until - nowMs, capMs };
        h.until = nowMs + capMs;
      }
    },
    retain(live: ReadonlySet<string>): void {
      for (const key of holds.keys()) if (!live.has(key)) holds.delete(key);
    },
  };
}
