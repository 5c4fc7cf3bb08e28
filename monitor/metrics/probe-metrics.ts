/**
 * Per-probe metrics: recording a result, and keeping the series in step with the plan so a
 * removed probe's series disappear on reload.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { OUTCOMES } from '../probe/expectation.js';
import type { ProbeResult } from '../probe/run.js';
import type { ProbeSpec } from '../probe/spec.js';
import { PROBE_LABELS, type ProbeLabels, probeLabels } from './labels.js';

/** Buckets from 5 ms to 30 s: fast API reads up to a timeout. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface ProbeMetrics {
  record(result: ProbeResult): void;
  /** Pre-initialises counters for the plan and drops every series of probes not in it. */
  syncPlan(plan: readonly ProbeSpec[]): void;
}

function gauge(registry: Registry, name: string, help: string, labelNames: readonly string[] = PROBE_LABELS): Gauge {
  return new Gauge({ name, help, labelNames: [...labelNames], registers: [registry] });
}

export function createProbeMetrics(registry: Registry): ProbeMetrics {
  const success = gauge(registry, 'repairmon_probe_success', '1 when the last outcome was the expected one, else 0');
  const total = new Counter({ name: 'repairmon_probes_total', help: 'Probes run, by outcome (every outcome pre-initialised to 0)', labelNames: [...PROBE_LABELS, 'outcome'], registers: [registry] });
  const duration = new Histogram({
    name: 'repairmon_probe_duration_seconds',
    help: 'Probe request duration (headers and body)',
    labelNames: ['target', 'endpoint'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const lastDuration = gauge(registry, 'repairmon_probe_last_duration_seconds', 'Duration of the last probe');
  const status = gauge(registry, 'repairmon_probe_http_status_code', 'HTTP status of the last probe; 0 when no response');
  const reason = gauge(registry, 'repairmon_probe_failure_reason', 'Why the last probe failed (one series per probe, value 1; reason="none" on success)', [...PROBE_LABELS, 'reason']);
  const items = gauge(registry, 'repairmon_probe_data_items', 'Number of items a list endpoint returned in the last probe');
  const degraded = gauge(registry, 'repairmon_probe_degraded', '1 when the last probe was slower than its SLO or rate limited');
  const lastRun = gauge(registry, 'repairmon_probe_last_run_timestamp_seconds', 'When the probe last ran (Unix time)');
  const lastSuccess = gauge(registry, 'repairmon_probe_last_success_timestamp_seconds', 'When the probe last had its expected outcome (Unix time)');
  const retryAfter = gauge(registry, 'repairmon_probe_retry_after_seconds', 'Seconds the key must wait after a 429 hint; 0 when not held', ['target', 'key_alias']);

  const lastReason = new Map<string, { labels: ProbeLabels; reason: string }>();
  const perProbe = [success, lastDuration, status, items, degraded, lastRun, lastSuccess];

  function dropProbe(id: string, labels: ProbeLabels): void {
    for (const g of perProbe) g.remove(labels);
    for (const outcome of OUTCOMES) total.remove({ ...labels, outcome });
    const previous = lastReason.get(id);
    if (previous) reason.remove({ ...previous.labels, reason: previous.reason });
    lastReason.delete(id);
  }

  let known = new Map<string, ProbeLabels>();
  let knownPairs = new Set<string>();
  let knownKeys = new Set<string>();

  return {
    record(result) {
      const { spec, verdict } = result;
      const labels = probeLabels(spec);
      const at = (result.startedAt + result.durationMs) / 1000;
      success.set(labels, verdict.success ? 1 : 0);
      total.inc({ ...labels, outcome: verdict.outcome });
      if (result.sent) {
        duration.observe({ target: spec.target, endpoint: spec.endpoint }, result.durationMs / 1000);
        lastDuration.set(labels, result.durationMs / 1000);
        status.set(labels, verdict.status ?? 0);
      }
      const previous = lastReason.get(spec.id);
      if (previous && previous.reason !== verdict.reason) reason.remove({ ...labels, reason: previous.reason });
      reason.set({ ...labels, reason: verdict.reason }, 1);
      lastReason.set(spec.id, { labels, reason: verdict.reason });
      if (verdict.items !== undefined) items.set(labels, verdict.items);
      degraded.set(labels, result.degraded === 'none' ? 0 : 1);
      lastRun.set(labels, at);
      if (verdict.success) lastSuccess.set(labels, at);
      if (result.retryAfterMs !== undefined || verdict.outcome !== 'rate_limited') {
        retryAfter.set({ target: spec.target, key_alias: spec.keyAlias }, (result.retryAfterMs ?? 0) / 1000);
      }
    },
    syncPlan(plan) {
      const next = new Map(plan.map((p) => [p.id, probeLabels(p)]));
      for (const [id, labels] of known) if (!next.has(id)) dropProbe(id, labels);
      for (const [id, labels] of next) {
        if (!known.has(id)) for (const outcome of OUTCOMES) total.inc({ ...labels, outcome }, 0);
      }
      const pairs = new Set(plan.map((p) => `${p.target}\u0000${p.endpoint}`));
      for (const pair of knownPairs) {
        if (pairs.has(pair)) continue;
        const [target = '', endpoint = ''] = pair.split('\u0000');
        duration.remove({ target, endpoint });
      }
      const keys = new Set(plan.map((p) => `${p.target}\u0000${p.keyAlias}`));
      for (const key of knownKeys) {
        if (keys.has(key)) continue;
        const [target = '', keyAlias = ''] = key.split('\u0000');
        retryAfter.remove({ target, key_alias: keyAlias });
      }
      known = next;
      knownPairs = pairs;
      knownKeys = keys;
    },
  };
}
