import { execFile } from 'node:child_process';
import fc from 'fast-check';
import { Gauge, Registry } from 'prom-client';
import { describe, expect, test } from 'vitest';
import { DEFAULT_PROBE_METRIC_SETTINGS, createProbeMetrics } from '../../../monitor/metrics/probe-metrics.js';
import { formatValue } from '../../../monitor/metrics/probe-table.js';
import { MonitorRegistry } from '../../../monitor/metrics/registry.js';
import { createServiceMetrics } from '../../../monitor/metrics/service-metrics.js';
import { OUTCOMES } from '../../../monitor/probe/expectation.js';
import { requireBinary } from '../tools/real-tools.js';
import { PER_PROBE, both, result, seriesOf, sortedLines, spec } from './table-helpers.js';

const nowak = spec('nowak-test', 'rowery-nowak');
const kowalski = spec('kowalski-test', 'serwis-kowalski');
const tricky = spec('alias "quoted" \\ back\nslash', 'shop\\"x"\n', 'tar"get\\');

describe('the probe table renders what prom-client rendered', () => {
  test.each([false, true])(
    'same text, family by family and as a whole, for probes recorded in plan order (per-key outcomes %s)',
    async (perKey) => {
      const m = both(perKey);
      m.syncPlan([nowak, kowalski, tricky]);
      m.record(result(nowak, { status: 200, items: 3 }));
      m.record(result(kowalski, { outcome: 'server_error', reason: 'status_503', status: 503, degraded: 'slo', durationMs: 1234.5 }));
      m.record(result(tricky, { outcome: 'rate_limited', reason: 'status_429', sent: false, degraded: 'rate_limited' }));
      m.record(result(nowak, { status: 200, items: 0, durationMs: 0.1 }));
      m.record(result(kowalski, { outcome: 'server_error', reason: 'status_503', status: 503 }));
      m.record(result(tricky, { outcome: 'rate_limited', reason: 'status_429', status: 429, retryAfterMs: 2500 }));
      for (const name of PER_PROBE)
        expect(await m.registry.getSingleMetricAsString(name), name).toBe(await m.reference.getSingleMetricAsString(name));
      expect(await m.registry.metrics()).toBe(await m.reference.metrics());
    },
  );

  test('a changed failure reason leaves one reason series per probe, as prom-client did', async () => {
    const m = both();
    m.syncPlan([nowak, kowalski]);
    m.record(result(nowak));
    m.record(result(kowalski));
    m.record(result(nowak, { outcome: 'timeout', reason: 'timeout_headers', status: undefined }));
    const text = await m.registry.metrics();
    // prom-client moves a re-set series to the end; the table keeps plan order. Prometheus ignores order.
    expect(sortedLines(text)).toEqual(sortedLines(await m.reference.metrics()));
    expect(seriesOf(text, 'repairmon_probe_failure_reason')).toEqual([
      'repairmon_probe_failure_reason{target="test",endpoint="clients",tenant="rowery-nowak",key_alias="nowak-test",check="read",reason="timeout_headers"} 1',
      'repairmon_probe_failure_reason{target="test",endpoint="clients",tenant="serwis-kowalski",key_alias="kowalski-test",check="read",reason="none"} 1',
    ]);
  });

  test('a scrape between records sees every later change (no stale lines)', async () => {
    const m = both();
    m.syncPlan([nowak, kowalski]);
    expect(await m.registry.metrics()).toBe(await m.reference.metrics());
    m.record(result(nowak, { status: 200, items: 1 }));
    m.record(result(kowalski, { status: 200, items: 5 }));
    expect(await m.registry.metrics()).toBe(await m.reference.metrics());
    m.record(result(nowak, { status: 200, items: 2 }));
    m.record(result(kowalski, { status: 200, items: 6 }));
    expect(await m.registry.metrics()).toBe(await m.reference.metrics());
  });
});

describe('label values and numbers', () => {
  test('escapes backslash, double quote and newline in every probe label', async () => {
    const registry = new MonitorRegistry();
    const metrics = createProbeMetrics(registry);
    metrics.syncPlan([tricky]);
    metrics.record(result(tricky));
    expect(seriesOf(await registry.getSingleMetricAsString('repairmon_probe_success'), 'repairmon_probe_success')).toEqual([
      'repairmon_probe_success{target="tar\\"get\\\\",endpoint="clients",tenant="shop\\\\\\"x\\"\\n",key_alias="alias \\"quoted\\" \\\\ back\\nslash",check="read"} 1',
    ]);
  });

  test('formats NaN and infinities as prom-client does', async () => {
    const registry = new Registry();
    const gauge = new Gauge({ name: 'x', help: 'x', labelNames: ['v'], registers: [registry] });
    const values = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0, 0.1, 1e21, 1.5e-7, 1_700_000_000.123];
    values.forEach((v, i) => gauge.set({ v: String(i) }, v));
    const expected = seriesOf(await registry.metrics(), 'x').map((l) => l.slice(l.lastIndexOf(' ') + 1));
    expect(values.map(formatValue)).toEqual(expected);
  });
});

describe('keeping the table in step with the plan', () => {
  test('a synced plan pre-initialises every outcome to 0 per target, endpoint and check, and no gauge yet', async () => {
    const registry = new MonitorRegistry();
    createProbeMetrics(registry).syncPlan([nowak, kowalski]);
    const text = await registry.metrics();
    // Two keys reading the same endpoint share one set of outcome counters.
    expect(seriesOf(text, 'repairmon_probes_total')).toEqual(
      OUTCOMES.map((o) => `repairmon_probes_total{target="test",endpoint="clients",check="read",outcome="${o}"} 0`),
    );
    // A planned probe's streak starts at "no failure", so it shows before its first run.
    expect(seriesOf(text, 'repairmon_probe_consecutive_failures')).toEqual([
      'repairmon_probe_consecutive_failures{target="test",endpoint="clients",tenant="rowery-nowak",key_alias="nowak-test",check="read",class="none"} 0',
      'repairmon_probe_consecutive_failures{target="test",endpoint="clients",tenant="serwis-kowalski",key_alias="kowalski-test",check="read",class="none"} 0',
    ]);
    for (const name of PER_PROBE.filter((n) => n !== 'repairmon_probes_total' && n !== 'repairmon_probe_consecutive_failures')) {
      expect(seriesOf(text, name), name).toEqual([]);
      expect(text).toContain(`# TYPE ${name} gauge`);
    }
  });

  test('metrics.perKeyOutcomes: every outcome pre-initialised per probe, with tenant and key alias', async () => {
    const registry = new MonitorRegistry();
    createProbeMetrics(registry, { ...DEFAULT_PROBE_METRIC_SETTINGS, perKeyOutcomes: true }).syncPlan([nowak]);
    expect(seriesOf(await registry.metrics(), 'repairmon_probes_total')).toEqual(
      OUTCOMES.map(
        (o) =>
          `repairmon_probes_total{target="test",endpoint="clients",tenant="rowery-nowak",key_alias="nowak-test",check="read",outcome="${o}"} 0`,
      ),
    );
  });

  test('per key: syncPlan drops every series of a removed probe, keeps the others, and a re-added probe starts afresh', async () => {
    const m = both(true);
    m.syncPlan([nowak, kowalski]);
    m.record(result(nowak, { items: 1 }));
    m.record(result(kowalski, { outcome: 'timeout', status: undefined }));
    m.syncPlan([kowalski]);
    const text = await m.registry.metrics();
    expect(text).not.toContain('nowak');
    expect(seriesOf(text, 'repairmon_probes_total')).toHaveLength(OUTCOMES.length);
    for (const name of PER_PROBE)
      expect(await m.registry.getSingleMetricAsString(name), name).toBe(await m.reference.getSingleMetricAsString(name));
    m.syncPlan([kowalski, nowak]);
    const again = await m.registry.metrics();
    expect(seriesOf(again, 'repairmon_probe_data_items')).toEqual([]);
    expect(seriesOf(again, 'repairmon_probes_total').filter((l) => l.includes('nowak-test'))).toHaveLength(OUTCOMES.length);
    expect(seriesOf(again, 'repairmon_probes_total').filter((l) => l.includes('nowak-test') && !l.endsWith(' 0'))).toEqual([]);
  });
});

const promtoolBin = requireBinary('/usr/bin/promtool', 'the promtool check on the probe table');

test.skipIf(!promtoolBin)('promtool check metrics is clean on the whole registry, tricky labels included', async () => {
  const registry = new MonitorRegistry();
  const metrics = createProbeMetrics(registry);
  createServiceMetrics(registry, { version: '0.0.0-test', shard: '0/1' });
  metrics.syncPlan([nowak, kowalski, tricky]);
  metrics.record(result(nowak, { items: 4, status: 200 }));
  metrics.record(
    result(tricky, { outcome: 'rate_limited', reason: 'status_429', status: 429, retryAfterMs: 1000, degraded: 'rate_limited' }),
  );
  const text = await registry.metrics();
  const out = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = execFile(promtoolBin!, ['check', 'metrics'], (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}${stderr}` }),
    );
    child.stdin?.end(text);
  });
  expect(out.out.trim()).toBe('');
  expect(out.code).toBe(0);
});

test('any sequence of syncs, records and scrapes renders what prom-client renders (line sets)', async () => {
  const pool = [nowak, kowalski, tricky, spec('gdansk-test', 'cykl-gdansk'), spec('nowak-test', 'rowery-nowak', 'production')];
  const shape = fc.record({
    outcome: fc.constantFrom(...OUTCOMES),
    reason: fc.constantFrom('none', 'status_503', 'timeout_headers', 'odd "reason"'),
    status: fc.option(fc.constantFrom(200, 401, 429, 503), { nil: undefined }),
    items: fc.option(fc.nat(20), { nil: undefined }),
    sent: fc.boolean(),
    degraded: fc.constantFrom('none' as const, 'slo' as const, 'rate_limited' as const),
    durationMs: fc.double({ min: 0, max: 30_000, noNaN: true }),
  });
  const op = fc.oneof(
    fc.record({ kind: fc.constant('sync' as const), keep: fc.subarray([0, 1, 2, 3, 4]) }),
    fc.record({ kind: fc.constant('record' as const), probe: fc.nat(4), shape }),
    fc.record({ kind: fc.constant('scrape' as const) }),
  );
  await fc.assert(
    fc.asyncProperty(fc.boolean(), fc.array(op, { maxLength: 30 }), async (perKey, ops) => {
      const m = both(perKey);
      let plan = pool;
      m.syncPlan(plan);
      for (const o of ops) {
        if (o.kind === 'sync') m.syncPlan((plan = o.keep.map((i) => pool[i]!)));
        else if (o.kind === 'scrape') await m.registry.metrics();
        else if (plan.includes(pool[o.probe]!)) m.record(result(pool[o.probe]!, o.shape));
      }
      for (const name of PER_PROBE)
        expect(sortedLines(await m.registry.getSingleMetricAsString(name)), name).toEqual(
          sortedLines(await m.reference.getSingleMetricAsString(name)),
        );
      expect(sortedLines(await m.registry.metrics())).toEqual(sortedLines(await m.reference.metrics()));
    }),
    { numRuns: 150 },
  );
});
