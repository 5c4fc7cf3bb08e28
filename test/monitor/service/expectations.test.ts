/**
 * Per-key expectations, failure classes and streaks against the real sandbox: a narrow-scope
 * key whose refusal is expected is green and not a key problem; data where a refusal was
 * expected is unexpected access; a misspelt tenant of a platform key is a config finding, not
 * an outage; a maintenance window ends an outage streak but not a key's.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseConfigValue } from '../../../monitor/config/load.js';
import type { MonitorConfig } from '../../../monitor/config/types.js';
import { demoRawConfig } from '../../../monitor/demo-config.js';
import { createMonitor } from '../../../monitor/service.js';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { latest, seriesValue, silent } from '../helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => sandbox.close());

type RawKey = Record<string, unknown> & { alias: string };

/** The demo config for some aliases, each key's raw YAML entry edited by `edit` first. */
function config(aliases: string[], edit: (key: RawKey) => RawKey = (k) => k, target: Record<string, unknown> = {}): MonitorConfig {
  const { raw, env } = demoRawConfig(sandbox, { aliases, timeoutMs: 5_000 });
  const targets = (raw['targets'] as Array<Record<string, unknown>>).map((t) => ({
    ...t,
    ...target,
    keys: (t['keys'] as RawKey[]).map(edit),
  }));
  const result = parseConfigValue({ ...raw, targets }, { env, baseDir: '/' });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

const labels = (key: string, endpoint: string, check = 'expected_refusal', tenant = 'rowery-nowak') => ({
  target: 'sandbox',
  endpoint,
  tenant,
  key_alias: key,
  check,
});

describe('expect in monitor.yaml', () => {
  test('a refusal the key expects is green, with no streak: its scope lacks logs and the config says so', async () => {
    const monitor = createMonitor(
      config(['nowak-nologs-test'], (k) => ({ ...k, expect: { logs: 'insufficient_scope' } })),
      { logger: silent },
    );
    try {
      await monitor.runOnce();
      const text = await monitor.registry.metrics();
      const logs = labels('nowak-nologs-test', 'logs');
      expect(latest(monitor, { keyAlias: 'nowak-nologs-test', endpoint: 'logs', check: 'expected_refusal' })).toMatchObject({
        outcome: 'insufficient_scope',
        success: true,
        reason: 'none',
      });
      expect(seriesValue(text, 'repairmon_probe_success', logs)).toBe(1);
      expect(seriesValue(text, 'repairmon_probe_consecutive_failures', { ...logs, class: 'none' })).toBe(0);
      expect(text).not.toMatch(/^repairmon_probe_success\{[^}]*\} 0$/m);
      // Counted under its own check: the reads' success ratio (ok / every check="read") stays whole.
      const counted = { target: 'sandbox', endpoint: 'logs', outcome: 'insufficient_scope' };
      expect(seriesValue(text, 'repairmon_probes_total', { ...counted, check: 'expected_refusal' })).toBe(1);
      expect(seriesValue(text, 'repairmon_probes_total', { ...counted, check: 'read' })).toBeUndefined();
    } finally {
      await monitor.stop();
    }
  });

  test('the same key without the expectation is a key problem (class key); another expected code is a deviation', async () => {
    const plain = createMonitor(config(['nowak-nologs-test']), { logger: silent });
    const otherCode = createMonitor(
      config(['nowak-nologs-test'], (k) => ({ ...k, expect: { logs: 'platform_key_required' } })),
      { logger: silent },
    );
    try {
      await plain.runOnce();
      await otherCode.runOnce();
      const logs = labels('nowak-nologs-test', 'logs', 'read');
      expect(seriesValue(await plain.registry.metrics(), 'repairmon_probe_consecutive_failures', { ...logs, class: 'key' })).toBe(1);
      expect(latest(otherCode, { keyAlias: 'nowak-nologs-test', endpoint: 'logs', check: 'expected_refusal' })).toMatchObject({
        success: true,
        reason: 'deviation_insufficient_scope',
      });
    } finally {
      await plain.stop();
      await otherCode.stop();
    }
  });

  test('data where the config expects a refusal is unexpected access (class breach), never green', async () => {
    const monitor = createMonitor(
      config(['nowak-test'], (k) => ({ ...k, expect: { logs: 'refused' } })),
      { logger: silent },
    );
    try {
      await monitor.runOnce();
      const text = await monitor.registry.metrics();
      const logs = labels('nowak-test', 'logs');
      expect(latest(monitor, { keyAlias: 'nowak-test', endpoint: 'logs', check: 'expected_refusal' })).toMatchObject({
        outcome: 'assertion_failed',
        success: false,
        reason: 'unexpected_access',
      });
      expect(seriesValue(text, 'repairmon_probe_consecutive_failures', { ...logs, class: 'breach' })).toBe(1);
    } finally {
      await monitor.stop();
    }
  });
});

describe('failure classes', () => {
  test('a platform key listing a misspelt tenant gets not_found there: class config, counted per endpoint as not_found', async () => {
    const monitor = createMonitor(
      config(['platform-test'], (k) => ({ ...k, tenants: ['rowery-nowak', 'rowery-nowakk'] })),
      { logger: silent },
    );
    try {
      await monitor.runOnce();
      await monitor.runOnce();
      const text = await monitor.registry.metrics();
      expect(latest(monitor, { keyAlias: 'platform-test', tenant: 'rowery-nowakk', endpoint: 'bikes', check: 'read' })).toMatchObject({
        outcome: 'not_found',
        reason: 'status_404',
      });
      expect(
        seriesValue(text, 'repairmon_probe_consecutive_failures', {
          ...labels('platform-test', 'bikes', 'read', 'rowery-nowakk'),
          class: 'config',
        }),
      ).toBe(2);
      expect(
        seriesValue(text, 'repairmon_probe_consecutive_failures', { ...labels('platform-test', 'bikes', 'read'), class: 'none' }),
      ).toBe(0);
      expect(
        seriesValue(text, 'repairmon_probes_total', { target: 'sandbox', endpoint: 'bikes', check: 'read', outcome: 'not_found' }),
      ).toBe(2);
    } finally {
      await monitor.stop();
    }
  });

  test('a maintenance window ends an outage streak (a fresh run must page after it), not a key streak', async () => {
    const base = config(['nowak-test', 'nowak-revoked-test']);
    const monitor = createMonitor(base, { logger: silent });
    try {
      sandbox.setFaults('status:503@/tenants/*/bikes');
      await monitor.runOnce();
      await monitor.runOnce();
      sandbox.setFaults('');
      const bikes = labels('nowak-test', 'bikes', 'read');
      const revoked = labels('nowak-revoked-test', 'clients', 'read');
      let text = await monitor.registry.metrics();
      expect(seriesValue(text, 'repairmon_probe_consecutive_failures', { ...bikes, class: 'service' })).toBe(2);
      expect(seriesValue(text, 'repairmon_probe_consecutive_failures', { ...revoked, class: 'key' })).toBe(2);
      const now = Date.now();
      const window = { kind: 'fixed' as const, startMs: now - 60_000, endMs: now + 60_000, reason: 'test' };
      await monitor.reload({ ok: true, config: { ...base, targets: base.targets.map((t) => ({ ...t, maintenance: [window] })) } });
      await monitor.tick('sandbox');
      text = await monitor.registry.metrics();
      expect(seriesValue(text, 'repairmon_maintenance_active', { target: 'sandbox' })).toBe(1);
      expect(seriesValue(text, 'repairmon_probe_consecutive_failures', { ...bikes, class: 'none' })).toBe(0);
      expect(seriesValue(text, 'repairmon_probe_consecutive_failures', { ...revoked, class: 'key' })).toBe(2);
    } finally {
      sandbox.setFaults('');
      await monitor.stop();
    }
  });
});
