/**
 * Series the monitor derives from the config alone, present before any tick: skipped-tick
 * counters at 0 for both reasons (so rate() sees the first skip), gone with their target.
 */
import { describe, expect, it } from 'vitest';
import { demoConfig } from '../../../monitor/demo-config.js';
import { createMonitor } from '../../../monitor/service.js';
import { seriesValue, silent } from '../helpers.js';

const sandboxLike = {
  baseUrl: 'http://127.0.0.1:9/api/v1',
  tenants: ['rowery-nowak'],
  keys: [{ alias: 'nowak-test', kind: 'tenant' as const, tenant: 'rowery-nowak', revoked: false, key: 'rs_test_abcdefghijklmnop1234' }],
};

describe('config-derived scheduler series', () => {
  it('repairmon_scheduler_ticks_skipped_total is 0 per target and reason before the first tick, and leaves with its target', async () => {
    const one = demoConfig(sandboxLike, { targetName: 'one' });
    const two = demoConfig(sandboxLike, { targetName: 'two' });
    const monitor = createMonitor({ ...one, targets: [...one.targets, ...two.targets] }, { logger: silent });
    try {
      const before = await monitor.registry.metrics();
      for (const target of ['one', 'two']) {
        for (const reason of ['overlap', 'maintenance']) {
          expect(seriesValue(before, 'repairmon_scheduler_ticks_skipped_total', { target, reason }), `${target} ${reason}`).toBe(0);
        }
      }
      await monitor.reload({ ok: true, config: one });
      const after = await monitor.registry.metrics();
      expect(seriesValue(after, 'repairmon_scheduler_ticks_skipped_total', { target: 'one', reason: 'overlap' })).toBe(0);
      expect(after).not.toMatch(/ticks_skipped_total\{[^}]*target="two"/);
    } finally {
      await monitor.stop();
    }
  });
});
