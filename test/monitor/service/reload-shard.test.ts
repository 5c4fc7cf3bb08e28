import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiKey } from '../../../api/client/index.js';
import { loadConfigFile } from '../../../monitor/config/load.js';
import type { MonitorConfig } from '../../../monitor/config/types.js';
import { demoConfig } from '../../../monitor/demo-config.js';
import { createMonitorServer } from '../../../monitor/http/server.js';
import { buildPlan } from '../../../monitor/probe/plan.js';
import { createMonitor } from '../../../monitor/service.js';
import { onShard, parseShard, shardOf } from '../../../monitor/shard.js';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { seriesValue, silent } from '../helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => sandbox.close());

function configFile(dir: string, aliases: string[]): string {
  const keys = aliases.map((alias) => {
    const k = sandbox.key(alias);
    const where = k.kind === 'tenant' ? `tenant: ${k.tenant}` : `tenants: [${sandbox.tenants.join(', ')}]`;
    return `      - { alias: ${alias}, kind: ${k.kind}, ${where}, secret: "\${KEY_${alias.replace(/-/g, '_').toUpperCase()}}" }`;
  });
  const file = join(dir, 'monitor.yaml');
  writeFileSync(
    file,
    ['targets:', '  - name: sandbox', `    baseUrl: ${sandbox.baseUrl}`, '    timeout: 2s', '    keys:', ...keys].join('\n'),
  );
  return file;
}

const env = (): NodeJS.ProcessEnv =>
  Object.fromEntries(sandbox.keys.map((k) => [`KEY_${k.alias.replace(/-/g, '_').toUpperCase()}`, k.key]));

describe('reload', () => {
  test('POST /-/reload applies a good config, drops removed series; a bad one keeps the old config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repairmon-reload-'));
    const file = configFile(dir, ['nowak-test', 'kowalski-test']);
    const first = loadConfigFile(file, env());
    if (!first.ok) throw new Error(JSON.stringify(first.issues));
    const monitor = createMonitor(first.config, { logger: silent, load: () => loadConfigFile(file, env()) });
    const server = await createMonitorServer(monitor, { host: '127.0.0.1', port: 0, logger: silent });
    try {
      await monitor.runOnce();
      const kowalski = { target: 'sandbox', endpoint: 'bikes', tenant: 'serwis-kowalski', key_alias: 'kowalski-test', check: 'read' };
      expect(seriesValue(await monitor.registry.metrics(), 'repairmon_probe_success', kowalski)).toBe(1);

      configFile(dir, ['nowak-test']);
      const good = await fetch(`${server.url}/-/reload`, { method: 'POST' });
      expect(good.status).toBe(200);
      await monitor.runOnce();
      let text = await monitor.registry.metrics();
      expect(seriesValue(text, 'repairmon_probe_success', kowalski)).toBeUndefined();
      expect(seriesValue(text, 'repairmon_probe_consecutive_failures', { ...kowalski, class: 'none' })).toBeUndefined();
      // The per-endpoint counter keeps what the removed key counted (it never goes down): 2 + 1.
      const bikes = { target: 'sandbox', endpoint: 'bikes', check: 'read', outcome: 'ok' };
      expect(seriesValue(text, 'repairmon_probes_total', bikes)).toBe(3);
      expect(text).toMatch(/^repairmon_config_last_reload_successful 1$/m);

      writeFileSync(file, 'targets:\n  - name: sandbox\n    bogus: 1\n');
      const bad = await fetch(`${server.url}/-/reload`, { method: 'POST' });
      expect(bad.status).toBe(400);
      const body = (await bad.json()) as { ok: boolean; issues: unknown[] };
      expect(body.ok).toBe(false);
      expect(body.issues).toContainEqual({ path: 'targets[0].bogus', message: 'unknown key' });
      text = await monitor.registry.metrics();
      expect(text).toMatch(/^repairmon_config_last_reload_successful 0$/m);
      expect(monitor.plan().every((p) => p.keyAlias === 'nowak-test' || p.keyAlias.startsWith('canary-'))).toBe(true);
      await monitor.runOnce();
      const nowak = { target: 'sandbox', endpoint: 'bikes', tenant: 'rowery-nowak', key_alias: 'nowak-test', check: 'read' };
      text = await monitor.registry.metrics();
      expect(seriesValue(text, 'repairmon_probe_success', nowak)).toBe(1);
      expect(seriesValue(text, 'repairmon_probes_total', { target: 'sandbox', endpoint: 'bikes', check: 'read', outcome: 'ok' })).toBe(4);
      expect((await fetch(`${server.url}/-/reload`)).status).toBe(405);
    } finally {
      await server.close();
      await monitor.stop();
    }
  });
});

describe('--shard i/N', () => {
  function bigConfig(): MonitorConfig {
    const base = demoConfig(sandbox);
    const target = base.targets[0]!;
    const keys = Array.from({ length: 300 }, (_, i) => ({
      alias: `shop-${i}-test`,
      kind: 'tenant' as const,
      tenant: `shop-${i}`,
      tenants: [`shop-${i}`],
      auth: 'bearer' as const,
      key: new ApiKey(`rs_test_${'x'.repeat(20)}${i}`, `shop-${i}-test`),
    }));
    return { ...base, targets: [{ ...target, keys: [...target.keys, ...keys] }] };
  }

  test('shards are disjoint and together complete, and each key stays on one shard', () => {
    const plan = buildPlan(bigConfig());
    for (const n of [1, 2, 3, 7]) {
      const seen = new Map<string, number>();
      for (let i = 0; i < n; i += 1) {
        const parsed = parseShard(`${i}/${n}`);
        if (!parsed.ok) throw new Error(parsed.message);
        for (const p of plan.filter((q) => onShard(q, parsed.shard))) {
          expect(seen.has(p.id)).toBe(false);
          seen.set(p.id, i);
        }
      }
      expect(seen.size).toBe(plan.length);
      const shardsPerKey = new Map<string, Set<number>>();
      for (const p of plan) shardsPerKey.set(p.keyAlias, (shardsPerKey.get(p.keyAlias) ?? new Set()).add(seen.get(p.id)!));
      expect([...shardsPerKey.values()].every((s) => s.size === 1)).toBe(true);
    }
  });

  test('a resize from 10 to 11 replicas moves at most 1/11 + 5 % of 10 000 keys, and every replica gets a fair share', () => {
    const aliases = Array.from({ length: 10_000 }, (_, i) => `shop-${i}-test`);
    const moved = aliases.filter((a) => shardOf('production', a, 10) !== shardOf('production', a, 11)).length;
    expect(moved / aliases.length).toBeLessThanOrEqual(1 / 11 + 0.05);
    const perReplica = new Array<number>(11).fill(0);
    for (const a of aliases) perReplica[shardOf('production', a, 11)]! += 1;
    // 909 each on average; a fair hash stays well inside +-20 %.
    expect(Math.min(...perReplica)).toBeGreaterThan(0.8 * (10_000 / 11));
    expect(Math.max(...perReplica)).toBeLessThan(1.2 * (10_000 / 11));
  });

  test("monitors on each shard plan their share only, and export it and the whole config's count", async () => {
    const config = bigConfig();
    const gauge = (text: string, name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
    const shares = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const m = createMonitor(config, { logger: silent, shard: { index: i, count: 3 } });
        const text = await m.registry.metrics();
        const share = {
          size: m.plan().length,
          owned: gauge(text, 'repairmon_shard_owned_probes'),
          total: gauge(text, 'repairmon_config_probes'),
        };
        await m.stop();
        return share;
      }),
    );
    const sizes = shares.map((s) => s.size);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(buildPlan(config).length);
    expect(Math.min(...sizes)).toBeGreaterThan(buildPlan(config).length / 6);
    expect(shares.map((s) => s.owned)).toEqual(sizes);
    expect(shares.map((s) => s.total)).toEqual([0, 1, 2].map(() => buildPlan(config).length));
  });

  test('bad shard specs are refused with the reason', () => {
    expect(parseShard('3/3')).toEqual({ ok: false, message: '--shard index i must be between 0 and 2 for N=3, got 3' });
    expect(parseShard('a/b')).toEqual({ ok: false, message: '--shard must look like i/N (e.g. 0/3), got "a/b"' });
  });
});
