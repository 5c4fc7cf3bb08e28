import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoConfig } from '../../../monitor/demo-config.js';
import { OUTCOMES } from '../../../monitor/probe/expectation.js';
import { createMonitor } from '../../../monitor/service.js';
import { type Rig, latest, seriesValue, silent, startRig } from '../helpers.js';

const ALIASES = ['platform-test', 'nowak-test', 'kowalski-test', 'nowak-nologs-test', 'nowak-revoked-test'];
let rig: Rig;

beforeAll(async () => {
  rig = await startRig({ aliases: ALIASES, timeoutMs: 3_000 });
});
afterAll(async () => rig.close());

async function round(faults: string): Promise<string> {
  rig.sandbox.setFaults(faults);
  await rig.monitor.runOnce();
  rig.sandbox.setFaults('');
  return rig.monitor.registry.metrics();
}

const nowakClients = { keyAlias: 'nowak-test', tenant: 'rowery-nowak', endpoint: 'clients', check: 'read' } as const;

describe('each outcome against the real sandbox, labelled in metrics', () => {
  test('a healthy round: reads ok, refusals as expected, every outcome pre-initialised', async () => {
    const text = await round('');
    expect(latest(rig.monitor, nowakClients)).toMatchObject({ outcome: 'ok', success: true, status: 200 });
    const labels = { target: 'sandbox', endpoint: 'clients', tenant: 'rowery-nowak', key_alias: 'nowak-test', check: 'read' };
    expect(seriesValue(text, 'repairmon_probe_success', labels)).toBe(1);
    expect(seriesValue(text, 'repairmon_probe_consecutive_failures', { ...labels, class: 'none' })).toBe(0);
    // Outcome counters are per target, endpoint and check: every key's read of clients counts here.
    const endpoint = { target: 'sandbox', endpoint: 'clients', check: 'read' };
    expect(seriesValue(text, 'repairmon_probes_total', { ...endpoint, outcome: 'ok' })).toBeGreaterThanOrEqual(3);
    for (const outcome of OUTCOMES) expect(seriesValue(text, 'repairmon_probes_total', { ...endpoint, outcome })).toBeDefined();
    expect(text).not.toMatch(/^repairmon_probes_total\{[^}]*key_alias=/m);
    expect(seriesValue(text, 'repairmon_probe_data_items', labels)).toBeGreaterThan(0);
    // Built-to-fail demo keys give their reasons, not a bare 0.
    expect(latest(rig.monitor, { keyAlias: 'nowak-revoked-test', endpoint: 'clients', check: 'read' })).toMatchObject({
      outcome: 'unauthorized',
      reason: 'code_unauthorized',
    });
    expect(latest(rig.monitor, { keyAlias: 'nowak-nologs-test', endpoint: 'logs', check: 'read' })).toMatchObject({
      outcome: 'insufficient_scope',
      reason: 'code_insufficient_scope',
    });
    expect(latest(rig.monitor, { keyAlias: 'nowak-test', check: 'cross_tenant' })).toMatchObject({
      outcome: 'tenant_mismatch',
      success: true,
    });
    expect(seriesValue(text, 'repairmon_probe_failure_reason', { ...labels, reason: 'none' })).toBe(1);
  });

  test('every series with an endpoint label uses the per-probe values, so latency and SLO join on them', async () => {
    const text = await rig.monitor.registry.metrics();
    const endpoints = (family: string): Set<string> =>
      new Set([...text.matchAll(new RegExp(`^${family}\\{[^}]*endpoint="([^"]*)"`, 'gm'))].map((m) => m[1]!));
    const perProbe = endpoints('repairmon_probe_success');
    expect(perProbe).toContain('platform/tenants');
    for (const family of [
      'repairmon_probe_duration_seconds_bucket',
      'repairmon_probe_slo_seconds',
      'repairmon_probe_availability_objective',
    ]) {
      const seen = endpoints(family);
      expect(seen.size, family).toBeGreaterThan(0);
      expect(
        [...seen].filter((e) => !perProbe.has(e)),
        family,
      ).toEqual([]);
    }
    expect(endpoints('repairmon_probe_slo_seconds')).toContain('platform/tenants');
  });

  test('faults map to timeout, connection_error, server_error, redirect, invalid_envelope', async () => {
    const text = await round(
      [
        'stall@/tenants/rowery-nowak/clients',
        'reset@/docs',
        'status:503@/tenants/rowery-nowak/repairs',
        'redirect:http://127.0.0.1:9/elsewhere@/tenants/rowery-nowak/bikes',
        'broken-envelope@/tenants/serwis-kowalski/clients',
        'html-502@/tenants/serwis-kowalski/repairs',
        'oversized:2000000@/tenants/serwis-kowalski/bikes',
        'ok-without-data@/tenants/serwis-kowalski/logs',
        'invalid-json@/tenants/rowery-nowak/logs',
      ].join(';'),
    );
    const expectations: Array<[Record<string, string>, string, string]> = [
      [nowakClients, 'timeout', 'timeout_body'],
      [{ endpoint: 'docs', check: 'read' }, 'connection_error', 'connection_und_err_socket'],
      [{ keyAlias: 'nowak-test', endpoint: 'repairs', check: 'read' }, 'server_error', 'status_503'],
      [{ keyAlias: 'nowak-test', endpoint: 'bikes', check: 'read' }, 'redirect', 'redirect_302'],
      [{ keyAlias: 'kowalski-test', endpoint: 'clients', check: 'read' }, 'invalid_envelope', 'envelope_ok_missing'],
      [{ keyAlias: 'kowalski-test', endpoint: 'repairs', check: 'read' }, 'server_error', 'status_502'],
      [{ keyAlias: 'kowalski-test', endpoint: 'bikes', check: 'read' }, 'invalid_envelope', 'body_too_large'],
      [{ keyAlias: 'kowalski-test', endpoint: 'logs', check: 'read' }, 'invalid_envelope', 'envelope_data_missing'],
      [{ keyAlias: 'nowak-test', endpoint: 'logs', check: 'read' }, 'invalid_envelope', 'envelope_not_json'],
    ];
    for (const [match, outcome, reason] of expectations) {
      const entry = latest(rig.monitor, match);
      expect([match, entry.outcome, entry.reason]).toEqual([match, outcome, reason]);
      const labels = { target: 'sandbox', endpoint: entry.endpoint, tenant: entry.tenant, key_alias: entry.keyAlias, check: entry.check };
      expect(
        seriesValue(text, 'repairmon_probes_total', { target: 'sandbox', endpoint: entry.endpoint, check: entry.check, outcome }),
      ).toBeGreaterThanOrEqual(1);
      expect(seriesValue(text, 'repairmon_probe_consecutive_failures', { ...labels, class: 'service' })).toBeGreaterThanOrEqual(1);
      expect(seriesValue(text, 'repairmon_probe_success', labels)).toBe(0);
      expect(seriesValue(text, 'repairmon_probe_failure_reason', { ...labels, reason })).toBe(1);
      // One reason series per probe: the old "none" is gone.
      expect(seriesValue(text, 'repairmon_probe_failure_reason', { ...labels, reason: 'none' })).toBeUndefined();
    }
  });

  test('isolation-breach turns the cross-tenant canary into assertion_failed', async () => {
    await round('isolation-breach');
    expect(latest(rig.monitor, { keyAlias: 'nowak-test', check: 'cross_tenant' })).toMatchObject({
      outcome: 'assertion_failed',
      reason: 'tenant_isolation_breach',
      success: false,
    });
  });

  test('https against a plain-HTTP port is a tls_error', async () => {
    const config = demoConfig(
      { ...rig.sandbox, baseUrl: rig.sandbox.baseUrl.replace('http:', 'https:') },
      { aliases: ['nowak-test'], timeoutMs: 3_000 },
    );
    const monitor = createMonitor(config, { logger: silent });
    try {
      const spec = monitor.plan().find((p) => p.endpoint === 'clients' && p.check === 'read');
      const result = await monitor.probeNow(spec!);
      expect(result.verdict.outcome).toBe('tls_error');
    } finally {
      await monitor.stop();
    }
  });

  test('no key value appears in the metrics or the history', async () => {
    const text = await rig.monitor.registry.metrics();
    const dump = text + JSON.stringify(rig.monitor.history.recent()) + JSON.stringify(rig.monitor.history.failures());
    for (const key of rig.sandbox.keys) expect(dump).not.toContain(key.key);
    expect(text).not.toContain('http://');
  });
});
