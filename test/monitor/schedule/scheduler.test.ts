import { Registry } from 'prom-client';
import { describe, expect, test } from 'vitest';
import { demoConfig } from '../../../monitor/demo-config.js';
import { createServiceMetrics } from '../../../monitor/metrics/service-metrics.js';
import { buildPlan } from '../../../monitor/probe/plan.js';
import { createSchedulesInForce } from '../../../monitor/schedule/in-force.js';
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

describe('rechecks', () => {
  /**
   * A one-second schedule, started, whose `runProbe` says per call whether to recheck; stopped
   * `runForMs` after start, or as soon as `stopWhen` holds.
   */
  async function scheduled(
    recheckAfterMs: number,
    runProbe: (id: string, at: number) => Promise<boolean>,
    runForMs: number,
    stopWhen?: () => boolean,
    thenMs = 0,
  ) {
    const config = demoConfig(fakeSandbox, { schedule: '* * * * * *', timeoutMs: 100 });
    const target = { ...config.targets[0]!, recheckAfterMs };
    const probes = buildPlan(config);
    const registry = new Registry();
    const metrics = createServiceMetrics(registry, { version: 't', shard: '0/1' });
    metrics.describe([target], probes, probes.length);
    const t0 = performance.now();
    const scheduler = createScheduler([{ target, probes }], {
      concurrency: 4,
      metrics,
      logger: silent,
      inMaintenance: () => false,
      random: () => 0.5,
      runProbe: (spec) => runProbe(spec.id, performance.now() - t0),
    });
    scheduler.start();
    if (stopWhen) await waitFor(stopWhen, { what: 'the stop condition', timeoutMs: runForMs, everyMs: 1 });
    else await new Promise((resolve) => setTimeout(resolve, runForMs));
    if (thenMs > 0) await new Promise((resolve) => setTimeout(resolve, thenMs));
    await scheduler.stop();
    return { probes, text: await registry.metrics() };
  }

  test('a failing read is probed again recheckAfter later, while it asks for it, before the next tick', async () => {
    const calls = new Map<string, number[]>();
    let failing: string | undefined;
    const { probes, text } = await scheduled(
      150,
      async (id, at) => {
        failing ??= id;
        calls.set(id, [...(calls.get(id) ?? []), at]);
        // The first probe fails twice in a row, then answers: two rechecks, the second ends it.
        return id === failing && (calls.get(id)?.length ?? 0) <= 2;
      },
      5_000,
      // Three calls (the tick's and two rechecks), then half a second more: time for a wrong
      // fourth recheck (150 ms), not for the next tick's probe (a second after the first).
      () => (calls.get(failing ?? '')?.length ?? 0) >= 3,
      500,
    );
    const times = calls.get(failing!)!;
    expect(times.length).toBeGreaterThanOrEqual(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(145);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(145);
    // The third call answered: no fourth before a new tick (a second after the first).
    if (times.length > 3) expect(times[3]! - times[0]!).toBeGreaterThan(700);
    for (const p of probes.filter((p) => p.id !== failing)) expect(calls.get(p.id)?.length ?? 0).toBeLessThanOrEqual(3);
    expect(seriesValue(text, 'repairmon_scheduler_rechecks_total', { target: 'sandbox' })).toBeGreaterThanOrEqual(2);
  });

  test("the next tick's probe of a read under recheck waits for the recheck, never running beside it", async () => {
    const inFlight = new Map<string, number>();
    const calls = new Map<string, number>();
    let peak = 0;
    let slow: string | undefined;
    await scheduled(
      150,
      async (id) => {
        slow ??= id;
        calls.set(id, (calls.get(id) ?? 0) + 1);
        inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
        peak = Math.max(peak, inFlight.get(id)!);
        // The first probe fails; its recheck hangs past the next tick.
        if (id === slow && calls.get(id) === 2) await new Promise((resolve) => setTimeout(resolve, 1_200));
        inFlight.set(id, inFlight.get(id)! - 1);
        return id === slow && calls.get(id) === 1;
      },
      5_000,
      () => (calls.get(slow ?? '') ?? 0) >= 3,
    );
    expect(calls.get(slow!)).toBe(3);
    expect(peak).toBe(1);
  });

  test("a reload's schedule waits for a recheck the old one had already sent, never sending the read beside it", async () => {
    const config = demoConfig(fakeSandbox, { schedule: '* * * * * *', timeoutMs: 100 });
    const target = { ...config.targets[0]!, recheckAfterMs: 150 };
    const probes = buildPlan(config);
    const registry = new Registry();
    const metrics = createServiceMetrics(registry, { version: 't', shard: '0/1' });
    metrics.describe([target], probes, probes.length);
    const inForce = createSchedulesInForce();
    const calls = new Map<string, number>();
    const inFlight = new Map<string, number>();
    let peak = 0;
    let slow: string | undefined;
    let recheckSent = false;
    const schedule = () =>
      createScheduler([{ target, probes }], {
        concurrency: 4,
        metrics,
        logger: silent,
        inMaintenance: () => false,
        random: () => 0.5,
        retiringRecheck: (id) => inForce.retiringRecheck(id),
        runProbe: async (spec) => {
          const id = spec.id;
          slow ??= id;
          calls.set(id, (calls.get(id) ?? 0) + 1);
          inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
          peak = Math.max(peak, inFlight.get(id)!);
          // The first probe fails; its recheck is sent, then a reload comes, and the recheck hangs past the new schedule's first tick.
          if (id === slow && calls.get(id) === 2) {
            recheckSent = true;
            await new Promise((resolve) => setTimeout(resolve, 1_200));
          }
          inFlight.set(id, inFlight.get(id)! - 1);
          return id === slow && calls.get(id) === 1;
        },
      });
    inForce.replace(schedule(), async () => undefined);
    inForce.start();
    try {
      await waitFor(() => recheckSent, { what: 'the recheck', timeoutMs: 5_000, everyMs: 1 });
      inForce.replace(schedule(), async () => undefined);
      await waitFor(() => (calls.get(slow!) ?? 0) >= 3, { what: "the new schedule's probe", timeoutMs: 5_000, everyMs: 1 });
    } finally {
      await inForce.stop();
    }
    expect(peak).toBe(1);
  });

  test('off (0), or too long to start before the next tick: no recheck; a recheck waiting at stop is dropped', async () => {
    for (const recheckAfterMs of [0, 995]) {
      const calls = new Map<string, number>();
      const { text } = await scheduled(
        recheckAfterMs,
        async (id) => {
          calls.set(id, (calls.get(id) ?? 0) + 1);
          return true;
        },
        1_400,
      );
      // Every probe ran once or twice (one or two ticks), none more.
      expect(Math.max(...calls.values()), `recheckAfter ${recheckAfterMs}`).toBeLessThanOrEqual(2);
      expect(seriesValue(text, 'repairmon_scheduler_rechecks_total', { target: 'sandbox' })).toBe(0);
    }
    // Stopped right after the first probes asked for a recheck: their 600 ms waits are under way.
    let calls = 0;
    let callsAtStop = 0;
    const started = performance.now();
    let stoppedAt = 0;
    await scheduled(
      600,
      async () => {
        calls += 1;
        return true;
      },
      3_000,
      () => {
        callsAtStop = calls;
        stoppedAt = performance.now();
        return calls > 0;
      },
    );
    // stop() did not wait the 600 ms out (550: room for a loaded runner's lag, still short of
    // the wait), and nothing was probed after it.
    expect(performance.now() - stoppedAt).toBeLessThan(550);
    expect(stoppedAt - started).toBeLessThan(2_500);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const after = calls - callsAtStop;
    expect(after).toBe(0);
  });
});
