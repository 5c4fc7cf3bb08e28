/**
 * A reload never costs a round: the round in progress finishes on the config it started with
 * while the new config takes over the schedule, and reloads that arrive together are read
 * once. (A page that could POST /-/reload every second used to stop every round: 30 reloads in
 * 30 s recorded no probe result, so an outage paged no one.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MonitorConfig } from '../../../monitor/config/types.js';
import { demoConfig } from '../../../monitor/demo-config.js';
import { type Monitor, createMonitor } from '../../../monitor/service.js';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { silent } from '../helpers.js';
import { waitFor } from '../../helpers/rig.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => sandbox.close());

const counter = async (monitor: Monitor, name: string): Promise<number> =>
  [...(await monitor.registry.metrics()).matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );

it('reloads every 100 ms during a 1 s schedule: every round that started records every probe', async () => {
  // Every second; a round spreads its probes over 0.8 x (1 s - 300 ms), so a reload lands in most rounds.
  const config: MonitorConfig = demoConfig(sandbox, { aliases: ['nowak-test', 'kowalski-test'], schedule: '* * * * * *', timeoutMs: 300 });
  const monitor = createMonitor(config, { logger: silent, load: () => ({ ok: true, config }) });
  let reloads = 0;
  try {
    await monitor.start();
    await waitFor(async () => (await counter(monitor, 'repairmon_scheduler_ticks_total')) >= 1, {
      what: 'the first tick',
      timeoutMs: 30_000,
    });
    const ticksBefore = await counter(monitor, 'repairmon_scheduler_ticks_total');
    while ((await counter(monitor, 'repairmon_scheduler_ticks_total')) < ticksBefore + 4) {
      expect((await monitor.reload()).ok).toBe(true);
      reloads += 1;
      // Time is what is tested: a reload every 100 ms, so they land inside rounds.
      await new Promise((r) => setTimeout(r, 100));
    }
    const ticks = await counter(monitor, 'repairmon_scheduler_ticks_total');
    // Every round started so far has ended (the tick-duration histogram counts ended rounds).
    await waitFor(async () => (await counter(monitor, 'repairmon_scheduler_tick_duration_seconds_count')) >= ticks, {
      what: 'the rounds under way to end',
      timeoutMs: 30_000,
    });
    expect(reloads).toBeGreaterThanOrEqual(20);
    const recorded = monitor.plan().map((p) => monitor.history.window(p.id).length);
    expect(Math.min(...recorded)).toBeGreaterThanOrEqual(ticks);
  } finally {
    await monitor.stop();
  }
}, 60_000);

it('reloads that arrive together read the config once', async () => {
  const config: MonitorConfig = demoConfig(sandbox, { aliases: ['nowak-test'], schedule: '0 0 1 1 *' });
  let reads = 0;
  const monitor = createMonitor(config, {
    logger: silent,
    load: () => {
      reads += 1;
      return { ok: true, config };
    },
  });
  try {
    const results = await Promise.all(Array.from({ length: 10 }, () => monitor.reload()));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(reads).toBe(1);
    // A reload asked for after that one started reads the file again: it may carry a newer edit.
    await monitor.reload();
    expect(reads).toBe(2);
  } finally {
    await monitor.stop();
  }
});
