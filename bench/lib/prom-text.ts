/** Figures out of Prometheus text exposition: series, a counter's sum, and a histogram quantile estimated like PromQL's `histogram_quantile`. Pure. */

export interface Sample {
  readonly name: string;
  readonly labels: string;
  readonly value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)/;

export function parseSamples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (match) out.push({ name: match[1] ?? '', labels: match[2] ?? '', value: Number(match[3]) });
  }
  return out;
}

export function seriesCount(text: string): number {
  return parseSamples(text).length;
}

export function sumOf(samples: readonly Sample[], name: string): number {
  return samples.filter((s) => s.name === name).reduce((sum, s) => sum + s.value, 0);
}

/** Bucket upper bound -> cumulative count, summed over every label set of the histogram. */
export function histogramBuckets(samples: readonly Sample[], name: string): Array<{ le: number; count: number }> {
  const byLe = new Map<number, number>();
  for (const s of samples) {
    if (s.name !== `${name}_bucket`) continue;
    const le = /le="([^"]+)"/.exec(s.labels)?.[1];
    if (le === undefined) continue;
    const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
    byLe.set(bound, (byLe.get(bound) ?? 0) + s.value);
  }
  return [...byLe.entries()].map(([le, count]) => ({ le, count })).sort((a, b) => a.le - b.le);
}

export type QuantileEstimate =
  | { readonly kind: 'empty' }
  /** Linear estimate inside the bucket, and that bucket's upper bound (a sure ceiling). */
  | { readonly kind: 'estimate'; readonly value: number; readonly atMost: number }
  /** Past the last finite bucket: only a floor is known. */
  | { readonly kind: 'above'; readonly atLeast: number };

export function histogramQuantile(q: number, buckets: ReadonlyArray<{ le: number; count: number }>): QuantileEstimate {
  const total = buckets.at(-1)?.count ?? 0;
  if (total === 0) return { kind: 'empty' };
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const bucket of buckets) {
    if (bucket.count >= rank) {
      if (!Number.isFinite(bucket.le)) return { kind: 'above', atLeast: lower };
      const inBucket = bucket.count - below;
      const value = inBucket === 0 ? bucket.le : lower + ((bucket.le - lower) * (rank - below)) / inBucket;
      return { kind: 'estimate', value, atMost: bucket.le };
    }
    lower = bucket.le;
    below = bucket.count;
  }
  return { kind: 'above', atLeast: lower };
}
