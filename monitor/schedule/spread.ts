/**
 * Where in the interval each probe of a tick starts. Probes are spread evenly with jitter over
 * the part of the interval that still leaves room for a full timeout, so a tick ends before
 * the next one is due and 1000 keys do not hit the API in the same millisecond. Pure.
 */

/** Fraction of (interval - timeout) used for starts; the rest is slack for a slow pool. */
export const SPREAD_FRACTION = 0.8;

export function spreadWindowMs(intervalMs: number, timeoutMs: number): number {
  return Math.max(0, (intervalMs - timeoutMs) * SPREAD_FRACTION);
}

/** Offsets in ms for `count` probes: probe i starts somewhere in slot i of `windowMs`. */
export function spreadOffsets(count: number, windowMs: number, random: () => number): number[] {
  if (count === 0 || windowMs <= 0) return Array.from({ length: count }, () => 0);
  const slot = windowMs / count;
  return Array.from({ length: count }, (_, i) => Math.floor((i + Math.min(Math.max(random(), 0), 0.999)) * slot));
}
