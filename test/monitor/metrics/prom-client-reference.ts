/**
 * The reference the probe table is checked against: the per-probe metrics as plain prom-client
 * Gauges and a Counter on a plain Registry, recording exactly as the monitor did before the
 * table (same names, help, label sets, pre-initialisation and removal).
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PROBE_LABELS, type ProbeLabels, probeLabels } from '../../../monitor/metrics/labels.js';
import { OUTCOMES } from '../../../monitor/probe/expectation.js';
import type { ProbeResult } from '../../../monitor/probe/run.js';
import type { ProbeSpec } from '../../../monitor/probe/spec.js';

export interface Reference {
  readonly registry: Registry;
  record(result: ProbeResult): void;
  syncPlan(plan: readonly ProbeSpec[]): void;
}

export function createReference(): Reference {
  const registry = new Registry();
  const registers = [registry];
  const gauge = (name: string, help: string, labelNames: readonly string[] = PROBE_LABELS): Gauge => new Gauge({ name, help, labelNames: [...labelNames], registers });
  const m = {
    success: gauge('repairmon_probe_success', '1 when the last outcome was the expected one, else 0'),
    total: new Counter({ name: 'repairmon_probes_total', help: 'Probes run, by outcome (every outcome pre-initialised to 0)', labelNames: [...PROBE_LABELS, 'outcome'], registers }),
    duration: new Histogram({ name: 'repairmon_probe_duration_seconds', help: 'Probe request duration (headers and body)', labelNames: ['target', 'endpoint'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers }),
    lastDuration: gauge('repairmon_probe_last_duration_seconds', 'Duration of the last probe'),
    status: gauge('repairmon_probe_http_status_code', 'HTTP status of the last probe; 0 when no response'),
    reason: gauge('repairmon_probe_failure_reason', 'Why the last probe failed (one series per probe, value 1; reason="none" on success)', [...PROBE_LABELS, 'reason']),
    items: gauge('repairmon_probe_data_items', 'Number of items a list endpoint returned in the last probe'),
    degraded: gauge('repairmon_probe_degraded', '1 when the last probe was slower than its SLO or rate limited'),
    lastRun: gauge('repairmon_probe_last_run_timestamp_seconds', 'When the probe last ran (Unix time)'),
    lastSuccess: gauge('repairmon_probe_last_success_timestamp_seconds', 'When the probe last had its expected outcome (Unix time)'),
    retryAfter: gauge('repairmon_probe_retry_after_seconds', 'Seconds the key must wait after a 429 hint; 0 when not held', ['target', 'key_alias']),
  };
  const perProbe = [m.success, m.lastDuration, m.status, m.items, m.degraded, m.lastRun, m.lastSuccess];
  const lastReason = new Map<string, { labels: ProbeLabels; reason: string }>();
  let known = new Map<string, ProbeLabels>();

  return {
    registry,
    record({ spec, verdict, ...result }) {
      const labels = probeLabels(spec);
      const at = (result.startedAt + result.durationMs) / 1000;
      m.success.set(labels, verdict.success ? 1 : 0);
      m.total.inc({ ...labels, outcome: verdict.outcome });
      if (result.sent) {
        m.duration.observe({ target: spec.target, endpoint: spec.endpoint }, result.durationMs / 1000);
        m.lastDuration.set(labels, result.durationMs / 1000);
        m.status.set(labels, verdict.status ?? 0);
      }
      const previous = lastReason.get(spec.id);
      if (previous && previous.reason !== verdict.reason) m.reason.remove({ ...labels, reason: previous.reason });
      m.reason.set({ ...labels, reason: verdict.reason }, 1);
      lastReason.set(spec.id, { labels, reason: verdict.reason });
      if (verdict.items !== undefined) m.items.set(labels, verdict.items);
      m.degraded.set(labels, result.degraded === 'none' ? 0 : 1);
      m.lastRun.set(labels, at);
      if (verdict.success) m.lastSuccess.set(labels, at);
      if (result.retryAfterMs !== undefined || verdict.outcome !== 'rate_limited') {
        m.retryAfter.set({ target: spec.target, key_alias: spec.keyAlias }, (result.retryAfterMs ?? 0) / 1000);
      }
    },
    syncPlan(plan) {
      const next = new Map(plan.map((p) => [p.id, probeLabels(p)]));
      for (const [id, labels] of known) {
        if (next.has(id)) continue;
        for (const g of perProbe) g.remove(labels);
        for (const outcome of OUTCOMES) m.total.remove({ ...labels, outcome });
        const previous = lastReason.get(id);
        if (previous) m.reason.remove({ ...previous.labels, reason: previous.reason });
        lastReason.delete(id);
      }
      for (const [id, labels] of next) if (!known.has(id)) for (const outcome of OUTCOMES) m.total.inc({ ...labels, outcome }, 0);
      known = next;
    },
  };
}
