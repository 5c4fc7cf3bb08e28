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

/**
 * The shortest slot probes start in. Probes of one slot start together because each start at
 * its own instant wakes the event loop, and on a VM a wakeup costs more CPU than the request
 * it sends: at 50 probes/s, starting every probe alone cost 67 ms of CPU per second, starting
 * them at once 32 ms (measured on the 2-core machine, `repairmon serve`, same config).
 */
export const SPREAD_SLOT_MS = 100;

/**
 * Offsets in ms for `count` probes: the window is cut into at most one slot per
 * SPREAD_SLOT_MS (and no more slots than probes), each slot starts at a jittered point of its
 * own span, and probe i, in plan order, starts with slot floor(i * slots / count).
 */
export function spreadOffsets(count: number, windowMs: number, random: () => number): number[] {
  if (count === 0 || windowMs <= 0) return Array.from({ length: count }, () => 0);
  const slots = Math.max(1, Math.min(count, Math.floor(windowMs / SPREAD_SLOT_MS)));
  const span = windowMs / slots;
  const starts = Array.from({ length: slots }, (_, s) => Math.floor((s + Math.min(Math.max(random(), 0), 0.999)) * span));
  return Array.from({ length: count }, (_, i) => starts[Math.floor((i * slots) / count)] ?? 0);
}
