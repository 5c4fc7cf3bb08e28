/**
 * Per-probe metrics: recording a result, and keeping the series in step with the plan so a
 * removed probe's series disappear on reload. The per-probe families live in the probe table
 * (probe-table.ts says why); the duration histogram and the per-key retry_after gauge are small
 * and stay plain prom-client.
 */
import { Gauge, Histogram, type Metric, type Registry } from 'prom-client';
import { type FailureClass, type Streak, failureClass } from '../probe/failure-class.js';
import type { ProbeResult } from '../probe/run.js';
import type { ProbeSpec } from '../probe/spec.js';
import { BASE_DURATION_BUCKETS } from './buckets.js';
import { createProbeTable } from './probe-table.js';

const SEP = '\u0000';
const DURATION_NAME = 'repairmon_probe_duration_seconds';

/** What the config decides about the per-probe families. */
export interface ProbeMetricSettings {
  /** Outcome counters per probe instead of per target, endpoint and check. */
  readonly perKeyOutcomes: boolean;
  /** Upper bounds of the duration histogram's buckets (see buckets.ts). */
  readonly buckets: readonly number[];
}

export const DEFAULT_PROBE_METRIC_SETTINGS: ProbeMetricSettings = { perKeyOutcomes: false, buckets: BASE_DURATION_BUCKETS };

function durationHistogram(registry: Registry, buckets: readonly number[]): Histogram {
  const help = 'Probe request duration (headers and body)';
  return new Histogram({ name: DURATION_NAME, help, labelNames: ['target', 'endpoint'], buckets: [...buckets], registers: [registry] });
}

/** Members of `before` missing from `after`, split back into their two parts. */
function gone(before: ReadonlySet<string>, after: ReadonlySet<string>): Array<[string, string]> {
  return [...before].filter((k) => !after.has(k)).map((k) => k.split(SEP) as [string, string]);
}

const sameBuckets = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

export function createProbeMetrics(registry: Registry, initial: ProbeMetricSettings = DEFAULT_PROBE_METRIC_SETTINGS) {
  const table = createProbeTable(initial.perKeyOutcomes);
  // In a fixed order, the one the prom-client reference renders them in.
  const f = table.families;
  for (const family of [f.success, f.total]) registry.registerMetric(family as unknown as Metric);
  let duration = durationHistogram(registry, initial.buckets);
  let buckets = initial.buckets;
  for (const family of [f.lastDuration, f.status, f.reason, f.items, f.lastRun, f.lastSuccess, f.streak])
    registry.registerMetric(family as unknown as Metric);
  const retryAfter = new Gauge({
    name: 'repairmon_probe_retry_after_seconds',
    help: 'Seconds the key must wait after a 429 hint; 0 when not held',
    labelNames: ['target', 'key_alias'],
    registers: [registry],
  });
  let knownPairs = new Set<string>();
  let knownKeys = new Set<string>();

  return {
    /**
     * Returns whose failure this result is, and the probe's run of failures after it. A recheck (`counted` false) changes
     * the probe's state but adds no sample to the outcome counters or the duration histogram: the
     * availability and latency ratios keep one sample per scheduled probe, not more while failing.
     */
    record(result: ProbeResult, counted = true): { readonly failure: FailureClass; readonly streak: Streak } {
      const { spec, verdict, sent } = result;
      const at = (result.startedAt + result.durationMs) / 1000;
      if (sent && counted) duration.observe({ target: spec.target, endpoint: spec.endpointLabel }, result.durationMs / 1000);
      const failure = failureClass(verdict.outcome, verdict.success, spec.endpoint);
      const streak = table.record(spec, {
        counted,
        outcome: verdict.outcome,
        reason: verdict.reason,
        failure,
        gauges: {
          success: verdict.success ? 1 : 0,
          lastDuration: sent ? result.durationMs / 1000 : undefined,
          status: sent ? (verdict.status ?? 0) : undefined,
          items: verdict.items,
          lastRun: at,
          lastSuccess: verdict.success ? at : undefined,
        },
      });
      // A 429 without a hint leaves the gauge as it was; anything else says whether a hint holds.
      if (result.retryAfterMs !== undefined || verdict.outcome !== 'rate_limited')
        retryAfter.set({ target: spec.target, key_alias: spec.keyAlias }, (result.retryAfterMs ?? 0) / 1000);
      return { failure, streak };
    },
    /** Pre-initialises counters for the plan, drops every series of probes not in it, applies the settings. */
    syncPlan(plan: readonly ProbeSpec[], settings?: ProbeMetricSettings): void {
      table.sync(plan);
      if (settings) {
        table.setPerKeyOutcomes(settings.perKeyOutcomes);
        // prom-client fixes a histogram's buckets at creation: new buckets are a new histogram
        // (Prometheus sees a counter reset, which rate() handles).
        if (!sameBuckets(settings.buckets, buckets)) {
          registry.removeSingleMetric(DURATION_NAME);
          duration = durationHistogram(registry, (buckets = settings.buckets));
        }
      }
      const pairs = new Set(plan.map((p) => `${p.target}${SEP}${p.endpointLabel}`));
      for (const [target, endpoint] of gone(knownPairs, pairs)) duration.remove({ target, endpoint });
      const keys = new Set(plan.map((p) => `${p.target}${SEP}${p.keyAlias}`));
      for (const [target, keyAlias] of gone(knownKeys, keys)) retryAfter.remove({ target, key_alias: keyAlias });
      knownPairs = pairs;
      knownKeys = keys;
    },
    endStreaks: (target: string, cls: FailureClass): void => table.endStreaks(target, cls),
  };
}
