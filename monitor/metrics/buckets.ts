/**
 * Buckets of `repairmon_probe_duration_seconds`, derived from the config so every latency SLO
 * is a bucket boundary with neighbours close around it, and every timeout a boundary too (a
 * probe cut at its timeout lands exactly in its bucket, and a figure between the SLO's
 * neighbours and the timeout is not read off a far 5 s or 10 s bucket). Pure.
 *
 * Why: `histogram_quantile` interpolates inside a bucket. With fixed 0.5-1-2.5 s buckets and an
 * 800 ms SLO, probes that all took 600 ms gave a p95 of 975 ms (an alert), and a real 1.2 s gave
 * 2.4 s. With the SLO itself a boundary, "p95 above the SLO" holds exactly when more than 5 % of
 * probes took longer than the SLO, whatever the interpolation; the neighbours keep the value
 * shown on the dashboard within about 10-25 % of the truth near the SLO.
 */
import type { MonitorTarget } from '../config/types.js';

/** Fast API reads up to a timeout, 5 ms to 30 s. */
export const BASE_DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Boundaries placed at these multiples of each SLO. */
export const SLO_MULTIPLIERS: readonly number[] = [0.5, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 2];

/** Seconds, rounded to the millisecond so 0.8 * 1.1 does not become 0.8800000000000001. */
const seconds = (ms: number): number => Math.round(ms) / 1000;

export function durationBuckets(targets: readonly (Pick<MonitorTarget, 'sloMs'> & Partial<Pick<MonitorTarget, 'timeoutMs'>>)[]): number[] {
  const bounds = new Set(BASE_DURATION_BUCKETS);
  for (const target of targets) {
    if (target.timeoutMs !== undefined) bounds.add(seconds(target.timeoutMs));
    for (const slo of Object.values(target.sloMs)) {
      if (slo === undefined || slo <= 0) continue;
      for (const m of SLO_MULTIPLIERS) bounds.add(seconds(slo * m));
    }
  }
  return [...bounds].filter((b) => b > 0).sort((a, b) => a - b);
}
