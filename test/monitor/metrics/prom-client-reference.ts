/**
 * The reference the probe table is checked against: the per-probe metrics as plain prom-client
 * Gauges and Counters on a plain Registry, recording as the monitor must (same names, help,
 * label sets, pre-initialisation and removal), in either outcome-counter mode. The streak's
 * arithmetic is the pure `nextStreak` the table also uses; what this checks is the rendering.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BASE_DURATION_BUCKETS } from '../../../monitor/metrics/buckets.js';
import { PROBE_LABELS, type ProbeLabels, probeLabels } from '../../../monitor/metrics/probe-table.js';
import { OUTCOMES } from '../../../monitor/probe/expectation.js';
import { NO_STREAK, type Streak, failureClass, nextStreak } from '../../../monitor/probe/failure-class.js';
import type { ProbeResult } from '../../../monitor/probe/run.js';
import type { ProbeSpec } from '../../../monitor/probe/spec.js';

export interface Reference {
  readonly registry: Registry;
  record(result: ProbeResult): void;
  syncPlan(plan: readonly ProbeSpec[]): void;
}

type EndpointLabels = { target: string; endpoint: string; check: string };
const endpointLabels = (spec: ProbeSpec): EndpointLabels => ({ target: spec.target, endpoint: spec.endpointLabel, check: spec.check });
const endpointKey = (l: EndpointLabels): string => `${l.target}\u0000${l.endpoint}\u0000${l.check}`;

export function createReference(options: { perKeyOutcomes?: boolean } = {}): Reference {
  const perKey = options.perKeyOutcomes ?? false;
  const registry = new Registry();
  const registers = [registry];
  const gauge = (name: string, help: string, labelNames: readonly string[] = PROBE_LABELS): Gauge =>
    new Gauge({ name, help, labelNames: [...labelNames], registers });
  const m = {
    success: gauge('repairmon_probe_success', '1 when the last outcome was the expected one, else 0'),
    total: new Counter({
      name: 'repairmon_probes_total',
      help: 'Probes run, by outcome (every outcome pre-initialised to 0)',
      labelNames: perKey ? [...PROBE_LABELS, 'outcome'] : ['target', 'endpoint', 'check', 'outcome'],
      registers,
    }),
    duration: new Histogram({
      name: 'repairmon_probe_duration_seconds',
      help: 'Probe request duration (headers and body)',
      labelNames: ['target', 'endpoint'],
      buckets: [...BASE_DURATION_BUCKETS],
      registers,
    }),
    lastDuration: gauge('repairmon_probe_last_duration_seconds', 'Duration of the last probe'),
    status: gauge('repairmon_probe_http_status_code', 'HTTP status of the last probe; 0 when no response'),
    reason: gauge('repairmon_probe_failure_reason', 'Why the last probe failed (one series per probe, value 1; reason="none" on success)', [
      ...PROBE_LABELS,
      'reason',
    ]),
    items: gauge('repairmon_probe_data_items', 'Number of items a list endpoint returned in the last probe'),
    lastRun: gauge('repairmon_probe_last_run_timestamp_seconds', 'When the probe last ran (Unix time)'),
    lastSuccess: gauge('repairmon_probe_last_success_timestamp_seconds', 'When the probe last had its expected outcome (Unix time)'),
    streak: gauge(
      'repairmon_probe_consecutive_failures',
      'Consecutive failures of one class ending with the last probe (class="none", 0 after a success); a 429 neither extends nor breaks another class',
      [...PROBE_LABELS, 'class'],
    ),
    retryAfter: gauge('repairmon_probe_retry_after_seconds', 'Seconds the key must wait after a 429 hint; 0 when not held', [
      'target',
      'key_alias',
    ]),
  };
  const perProbe = [m.success, m.lastDuration, m.status, m.items, m.lastRun, m.lastSuccess];
  const lastReason = new Map<string, { labels: ProbeLabels; reason: string }>();
  const streaks = new Map<string, Streak>();
  let known = new Map<string, ProbeLabels>();
  let knownEndpoints = new Map<string, EndpointLabels>();
  let knownPairs = new Set<string>();
  let knownAliases = new Set<string>();

  return {
    registry,
    record({ spec, verdict, ...result }) {
      const labels = probeLabels(spec);
      const at = (result.startedAt + result.durationMs) / 1000;
      m.success.set(labels, verdict.success ? 1 : 0);
      m.total.inc({ ...(perKey ? labels : endpointLabels(spec)), outcome: verdict.outcome });
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
      m.lastRun.set(labels, at);
      if (verdict.success) m.lastSuccess.set(labels, at);
      const before = streaks.get(spec.id);
      const after = nextStreak(before ?? NO_STREAK, failureClass(verdict.outcome, verdict.success, spec.endpoint));
      if (before && before.class !== after.class) m.streak.remove({ ...labels, class: before.class });
      m.streak.set({ ...labels, class: after.class }, after.count);
      streaks.set(spec.id, after);
      if (result.retryAfterMs !== undefined || verdict.outcome !== 'rate_limited') {
        m.retryAfter.set({ target: spec.target, key_alias: spec.keyAlias }, (result.retryAfterMs ?? 0) / 1000);
      }
    },
    syncPlan(plan) {
      const next = new Map(plan.map((p) => [p.id, probeLabels(p)]));
      for (const [id, labels] of known) {
        if (next.has(id)) continue;
        for (const g of perProbe) g.remove(labels);
        if (perKey) for (const outcome of OUTCOMES) m.total.remove({ ...labels, outcome });
        const previous = lastReason.get(id);
        if (previous) m.reason.remove({ ...previous.labels, reason: previous.reason });
        lastReason.delete(id);
        const streak = streaks.get(id);
        if (streak) m.streak.remove({ ...labels, class: streak.class });
        streaks.delete(id);
      }
      for (const [id, labels] of next) {
        if (known.has(id)) continue;
        if (perKey) for (const outcome of OUTCOMES) m.total.inc({ ...labels, outcome }, 0);
        m.streak.set({ ...labels, class: NO_STREAK.class }, 0);
        streaks.set(id, NO_STREAK);
      }
      const endpoints = new Map(plan.map((p) => [endpointKey(endpointLabels(p)), endpointLabels(p)]));
      if (!perKey) {
        for (const [key, labels] of knownEndpoints)
          if (!endpoints.has(key)) for (const outcome of OUTCOMES) m.total.remove({ ...labels, outcome });
        for (const [key, labels] of endpoints)
          if (!knownEndpoints.has(key)) for (const outcome of OUTCOMES) m.total.inc({ ...labels, outcome }, 0);
      }
      const pairs = new Set(plan.map((p) => `${p.target}\u0000${p.endpoint}`));
      for (const pair of knownPairs)
        if (!pairs.has(pair)) m.duration.remove({ target: pair.split('\u0000')[0] ?? '', endpoint: pair.split('\u0000')[1] ?? '' });
      const aliases = new Set(plan.map((p) => `${p.target}\u0000${p.keyAlias}`));
      for (const pair of knownAliases)
        if (!aliases.has(pair)) m.retryAfter.remove({ target: pair.split('\u0000')[0] ?? '', key_alias: pair.split('\u0000')[1] ?? '' });
      known = next;
      knownEndpoints = endpoints;
      knownPairs = pairs;
      knownAliases = aliases;
    },
  };
}
