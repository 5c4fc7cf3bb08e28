/**
 * Per-probe metrics: recording a result, and keeping the series in step with the plan so a
 * removed probe's series disappear on reload.
 *
 * The per-probe families live in a ProbeTable rather than prom-client Gauges/Counters: at
 * 1 000 tenant keys they are ~139 000 series, and prom-client's generic render made a scrape
 * take 510-620 ms p50 where issue 9 wants < 250 ms (the table: 70-100 ms; see probe-table.ts).
 * The histogram (by target and endpoint) and the per-key retry_after gauge are small and stay
 * plain prom-client.
 */
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { ProbeResult } from '../probe/run.js';
import type { ProbeSpec } from '../probe/spec.js';
import { type ProbeTable, createProbeTable } from './probe-table.js';
import { registerFamily } from './registry.js';

/** Buckets from 5 ms to 30 s: fast API reads up to a timeout. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SEP = '\u0000';

export interface ProbeMetrics {
  record(result: ProbeResult): void;
  /** Pre-initialises counters for the plan and drops every series of probes not in it. */
  syncPlan(plan: readonly ProbeSpec[]): void;
}

/** Registers every family in the order prom-client used to list them. */
function defineMetrics(registry: Registry, table: ProbeTable) {
  const registers = [registry];
  const f = table.families;
  for (const family of [f.success, f.total]) registerFamily(registry, family);
  const duration = new Histogram({ name: 'repairmon_probe_duration_seconds', help: 'Probe request duration (headers and body)', labelNames: ['target', 'endpoint'], buckets: DURATION_BUCKETS, registers });
  for (const family of [f.lastDuration, f.status, f.reason, f.items, f.degraded, f.lastRun, f.lastSuccess]) registerFamily(registry, family);
  const retryAfter = new Gauge({ name: 'repairmon_probe_retry_after_seconds', help: "Seconds the key must wait after a 429 hint; 0 when not held", labelNames: ['target', 'key_alias'], registers });
  return { duration, retryAfter };
}

type Metrics = ReturnType<typeof defineMetrics>;

function recordInto(m: Metrics, table: ProbeTable, result: ProbeResult): void {
  const { spec, verdict } = result;
  const at = (result.startedAt + result.durationMs) / 1000;
  if (result.sent) m.duration.observe({ target: spec.target, endpoint: spec.endpoint }, result.durationMs / 1000);
  table.record(spec, {
    outcome: verdict.outcome,
    reason: verdict.reason,
    gauges: {
      success: verdict.success ? 1 : 0,
      lastDuration: result.sent ? result.durationMs / 1000 : undefined,
      status: result.sent ? (verdict.status ?? 0) : undefined,
      items: verdict.items,
      degraded: result.degraded === 'none' ? 0 : 1,
      lastRun: at,
      lastSuccess: verdict.success ? at : undefined,
    },
  });
  // A 429 without a hint leaves the gauge as it was; anything else says whether a hint holds.
  if (result.retryAfterMs !== undefined || verdict.outcome !== 'rate_limited') {
    m.retryAfter.set({ target: spec.target, key_alias: spec.keyAlias }, (result.retryAfterMs ?? 0) / 1000);
  }
}

/** Members of `before` missing from `after`, split back into their two parts. */
function gone(before: ReadonlySet<string>, after: ReadonlySet<string>): Array<[string, string]> {
  return [...before].filter((k) => !after.has(k)).map((k) => {
    const [a = '', b = ''] = k.split(SEP);
    return [a, b];
  });
}

export function createProbeMetrics(registry: Registry): ProbeMetrics {
  const table = createProbeTable();
  const m = defineMetrics(registry, table);
  let knownPairs = new Set<string>();
  let knownKeys = new Set<string>();

  return {
    record: (result) => recordInto(m, table, result),
    syncPlan(plan) {
      table.sync(plan);
      const pairs = new Set(plan.map((p) => `${p.target}${SEP}${p.endpoint}`));
      for (const [target, endpoint] of gone(knownPairs, pairs)) m.duration.remove({ target, endpoint });
      const keys = new Set(plan.map((p) => `${p.target}${SEP}${p.keyAlias}`));
      for (const [target, keyAlias] of gone(knownKeys, keys)) m.retryAfter.remove({ target, key_alias: keyAlias });
      knownPairs = pairs;
      knownKeys = keys;
    },
  };
}
