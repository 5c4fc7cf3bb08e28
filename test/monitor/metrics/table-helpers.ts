/** What the probe-table tests share: probes, results, and the table beside its prom-client reference. */
import { DEFAULT_PROBE_METRIC_SETTINGS, createProbeMetrics } from '../../../monitor/metrics/probe-metrics.js';
import { MonitorRegistry } from '../../../monitor/metrics/registry.js';
import type { Outcome } from '../../../monitor/probe/expectation.js';
import type { ProbeResult } from '../../../monitor/probe/run.js';
import { type ProbeSpec, makeProbe } from '../../../monitor/probe/spec.js';
import { createReference } from './prom-client-reference.js';

export const PER_PROBE = [
  'repairmon_probe_success',
  'repairmon_probes_total',
  'repairmon_probe_last_duration_seconds',
  'repairmon_probe_http_status_code',
  'repairmon_probe_failure_reason',
  'repairmon_probe_data_items',
  'repairmon_probe_last_run_timestamp_seconds',
  'repairmon_probe_last_success_timestamp_seconds',
  'repairmon_probe_consecutive_failures',
];

export function spec(keyAlias: string, tenant: string, target = 'test'): ProbeSpec {
  return makeProbe({
    target,
    endpoint: 'clients',
    tenant,
    keyAlias,
    check: 'read',
    credential: { kind: 'none' },
    expect: { kind: 'success', list: true },
  });
}

export interface Shape {
  readonly outcome?: Outcome;
  readonly reason?: string;
  readonly status?: number;
  readonly items?: number;
  readonly sent?: boolean;
  readonly degraded?: ProbeResult['degraded'];
  readonly retryAfterMs?: number;
  readonly durationMs?: number;
}

export function result(probe: ProbeSpec, shape: Shape = {}): ProbeResult {
  const outcome = shape.outcome ?? 'ok';
  return {
    spec: probe,
    verdict: {
      outcome,
      expected: 'ok',
      success: outcome === 'ok',
      reason: shape.reason ?? (outcome === 'ok' ? 'none' : outcome),
      detail: '',
      status: shape.status,
      items: shape.items,
    },
    startedAt: 1_700_000_000_123,
    durationMs: shape.durationMs ?? 42.5,
    sent: shape.sent ?? true,
    degraded: shape.degraded ?? 'none',
    retryAfterMs: shape.retryAfterMs,
    attempt: undefined,
  };
}

/** The table on a MonitorRegistry and the prom-client reference, fed the same plan and results. */
export function both(perKeyOutcomes = false) {
  const registry = new MonitorRegistry();
  const table = createProbeMetrics(registry, { ...DEFAULT_PROBE_METRIC_SETTINGS, perKeyOutcomes });
  const reference = createReference({ perKeyOutcomes });
  return {
    registry,
    reference: reference.registry,
    syncPlan(plan: readonly ProbeSpec[]) {
      table.syncPlan(plan);
      reference.syncPlan(plan);
    },
    record(r: ProbeResult) {
      table.record(r);
      reference.record(r);
    },
  };
}

export const sortedLines = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .sort();
export const seriesOf = (text: string, name: string): string[] => text.split('\n').filter((l) => l.startsWith(`${name}{`));
