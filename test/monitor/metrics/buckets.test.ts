/**
 * Duration buckets around each SLO: the SLO is a boundary, so p95 estimated the way
 * `histogram_quantile` does is above the SLO exactly when more than 5 % of probes were slower,
 * whatever the durations; with the old fixed buckets it was not (the ops report: 600 ms probes
 * against an 800 ms SLO read as a 975 ms p95).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { histogramQuantile } from '../../../bench/lib/prom-text.js';
import { BASE_DURATION_BUCKETS, durationBuckets } from '../../../monitor/metrics/buckets.js';

function p95(observations: readonly number[], bounds: readonly number[]): number {
  const buckets = [...bounds, Number.POSITIVE_INFINITY].map((le) => ({ le, count: observations.filter((o) => o <= le).length }));
  const q = histogramQuantile(0.95, buckets);
  return q.kind === 'estimate' ? q.value : q.kind === 'above' ? Number.POSITIVE_INFINITY : 0;
}

describe('durationBuckets', () => {
  it('adds each SLO and its neighbours to the base buckets, sorted, without duplicates or float noise', () => {
    const buckets = durationBuckets([{ sloMs: { clients: 800, index: 300 } }, { sloMs: { clients: 800 } }]);
    expect(buckets).toEqual(expect.arrayContaining([...BASE_DURATION_BUCKETS, 0.8, 0.72, 0.88, 1.2, 1.6, 0.3, 0.27, 0.33]));
    expect(buckets).toEqual([...new Set(buckets)].sort((a, b) => a - b));
    expect(buckets.every((b) => Math.round(b * 1000) === b * 1000)).toBe(true);
    expect(durationBuckets([{ sloMs: {} }])).toEqual(BASE_DURATION_BUCKETS);
  });

  it('the ops report: every probe at 600 ms against an 800 ms SLO is under it now, and 1.2 s reads as about 1.2 s', () => {
    const bounds = durationBuckets([{ sloMs: { clients: 800 } }]);
    expect(p95(Array(100).fill(0.6), BASE_DURATION_BUCKETS)).toBeCloseTo(0.975, 3);
    expect(p95(Array(100).fill(0.6), bounds)).toBeLessThanOrEqual(0.8);
    expect(p95(Array(100).fill(1.2), BASE_DURATION_BUCKETS)).toBeCloseTo(2.425, 3);
    expect(p95(Array(100).fill(1.2), bounds)).toBeCloseTo(1.19, 2);
  });

  it('each timeout is a boundary: 3 s answers with a 4 s timeout read at most 4 s, not 4.9 s off the 2.5-5 s bucket', () => {
    const bounds = durationBuckets([{ sloMs: { clients: 800 }, timeoutMs: 4_000 }]);
    expect(bounds).toContain(4);
    expect(p95(Array(100).fill(3), durationBuckets([{ sloMs: { clients: 800 } }]))).toBeCloseTo(4.875, 3);
    expect(p95(Array(100).fill(3), bounds)).toBeLessThanOrEqual(4);
  });

  it('property: p95 is above the SLO exactly when more than 5 % of the probes were slower than it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 50, max: 5_000 }),
        fc.array(fc.double({ min: 0.001, max: 20, noNaN: true }), { minLength: 1, maxLength: 200 }),
        (sloMs, observations) => {
          const slo = sloMs / 1000;
          const slower = observations.filter((o) => o > slo).length / observations.length;
          expect(p95(observations, durationBuckets([{ sloMs: { clients: sloMs } }])) > slo).toBe(slower > 0.05);
        },
      ),
      { numRuns: 300 },
    );
  });
});
