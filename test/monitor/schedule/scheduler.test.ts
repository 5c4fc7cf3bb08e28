import { Registry } from 'prom-client';
import { describe, expect, test } from 'vitest';
import { demoConfig } from '../../../monitor/demo-config.js';
import { createServiceMetrics } from '../../../monitor/metrics/service-metrics.js';
import { buildPlan } from '../../../monitor/probe/plan.js';
import { SPREAD_SLOT_MS, createPool, createScheduler, spreadOffsets, spreadWindowMs } from '../../../monitor/schedule/scheduler.js';
import { seriesValue, silent } from '../helpers.js';
import { waitFor } from '../../helpers/rig.js';

const fakeSandbox = {
  baseUrl: 'http://127.0.0.1:9/api/v1',
  tenants: ['rowery-nowak'],
  keys: [{ alias: 'nowak-test', kind: 'tenant' as const, tenant: 'rowery-nowak', revoked: false, key: 'rs_test_abcdefghijklmnopqrstu' }],
};

describe('spread', () => {
  test('offsets fall in their own slot of the window and leave room for a timeout', () => {
    expect(spreadWindowMs(30_000, 10_000)).toBe(16_000);
    const offsets = spreadOffsets(4, 16_000, () => 0.5);
    expect(offsets).toEqual([2_000, 6_000, 10_000, 14_000]);
    expect(spreadOffsets(3, 0, Math.random)).toEqual([0, 0, 0]);
    for (const o of spreadOffsets(100, 16_000, Math.random)) expect(o).toBeLessThan(16_000);
  });

  test('probes start in shared slots no shorter than SPREAD_SLOT_MS, in plan order', () => {
    const offsets = spreadOffsets(50, 400, Math.random);
    const starts = [...new Set(offsets)];
    expect(starts.length).toBeLessThanOrEqual(400 / SPREAD_SLOT_MS);
    expect(starts.length).toBeGreaterThan(1);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    for (const o of offsets) expect(o).toBeLessThan(400);
    // 7 000 probes over a 16 s window: 160 slots of 100 ms, every one used.
    expect(new Set(spreadOffsets(7_000, 16_000, () => 0.5)).size).toBe(160);
  });
});

describe('pool', () => {
  test('never runs more than its size at once', async () => {
    let running = 0;
    let peak = 0;
    let active = -1;
    const pool = createPool(3, (now) => (active = now));
    await Promise.all(
      Array.from({ length: 20 }, () =>
        pool.run(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((r) => setImmediate(r));
          running -= 1;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(active).toBe(0);
  });
});

describe('scheduler', () => {
  test('a tick runs every probe once through the pool and records schedule delay', async () => {
    const config = demoConfig(fakeSandbox, { schedule: '*/30 * * * * *', timeoutMs: 1_000 });
    const target = config.targets[0]!;
    const probes = buildPlan(config);
    const registry = new Registry();
    const metrics = createServiceMetrics(registry, { version: 't', shard: '0/1' });
    const ran: string[] = [];
    let clock = 0;
    const scheduler = createScheduler([{ target, probes }], {
      concurrency: 2,
      metrics,
      logger: silent,
      inMaintenance: () => false,
      now: () => clock,
      runProbe: async (spec) => {
        ran.push(spec.id);
        clock += 100;
      },
    });
    await scheduler.tick('sandbox');
    expect(ran.sort()).toEqual(probes.map((p) => p.id).sort());
    const text = await registry.metrics();
    expect(seriesValue(text, 'repairmon_probe_schedule_delay_seconds_count', { target: 'sandbox' })).toBe(probes.length);
    expect(seriesValue(text, 'repairmon_scheduler_ticks_total', { target: 'sandbox' })).toBe(1);
    await scheduler.stop();
  });

  test('a tick inside a maintenance window runs nothing and says so', async () => {
    const config = demoConfig(fakeSandbox);
    const registry = new Registry();
    const metrics = createServiceMetrics(registry, { version: 't', shard: '0/1' });
    let ran = 0;
    const scheduler = createScheduler([{ target: config.targets[0]!, probes: buildPlan(config) }], {
      concurrency: 2,
      metrics,
      logger: silent,
      inMaintenance: () => true,
      runProbe: async () => {
        ran += 1;
      },
    });
    await scheduler.runOnce();
    expect(ran).toBe(0);
    const text = await registry.metrics();
    expect(seriesValue(text, 'repairmon_maintenance_active', { target: 'sandbox' })).toBe(1);
    expect(seriesValue(text, 'repairmon_scheduler_ticks_skipped_total', { target: 'sandbox', reason: 'maintenance' })).toBe(1);
    await scheduler.stop();
  });

  test('started, the cron schedule fires ticks by itself (UTC, every second here)', async () => {
    const config = demoConfig(fakeSandbox, { schedule: '* * * * * *', timeoutMs: 200 });
    const registry = new Registry();
    const metrics = createServiceMetrics(registry, { version: 't', shard: '0/1' });
    let ran = 0;
    const scheduler = createScheduler([{ target: config.targets[0]!, probes: buildPlan(config) }], {
      concurrency: 4,
      metrics,
      logger: silent,
      inMaintenance: () => false,
      runProbe: async () => {
        ran += 1;
      },
    });
    scheduler.start();
    try {
      await waitFor(() => ran > 0, { what: 'a probe to run', timeoutMs: 5_000 });
    } finally {
      await scheduler.stop();
    }
    expect(ran).toBeGreaterThan(0);
  });
});
