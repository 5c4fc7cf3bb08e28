/**
 * projectedSeries(config) against a real scrape: after one healthy round against the sandbox,
 * the `repairmon_*` lines of /metrics are exactly the projected count, family by family, in
 * both outcome-counter modes; and the default stays within the series budget per probe.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseConfigValue } from '../../../monitor/config/load.js';
import type { MonitorConfig } from '../../../monitor/config/types.js';
import { demoRawConfig } from '../../../monitor/demo-config.js';
import { projectedSeries } from '../../../monitor/metrics/projection.js';
import { createMonitor } from '../../../monitor/service.js';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { silent } from '../helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => sandbox.close());

/** Every healthy demo key, plus the narrow-scope one with its refusal expected, on two targets. */
function config(perKeyOutcomes: boolean): MonitorConfig {
  const aliases = ['platform-test', 'nowak-test', 'kowalski-test', 'gdansk-test', 'nowak-nologs-test'];
  const { raw, env } = demoRawConfig(sandbox, { aliases, timeoutMs: 2_000 });
  const [target] = raw['targets'] as Array<Record<string, unknown>>;
  const keys = (target?.['keys'] as Array<Record<string, unknown>>).map((k) =>
    k['alias'] === 'nowak-nologs-test' ? { ...k, expect: { logs: 'insufficient_scope' } } : k,
  );
  const second = { ...target, name: 'second', slo: { clients: '300ms' }, availability: { default: 99.9 }, keys: keys.slice(1, 2) };
  const result = parseConfigValue({ ...raw, metrics: { perKeyOutcomes }, targets: [{ ...target, keys }, second] }, { env, baseDir: '/' });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

function familiesOf(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const name = /^(repairmon_[a-z_]+?)(?:_bucket|_sum|_count)?[{ ]/.exec(line)?.[1];
    if (name) counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

describe('projectedSeries', () => {
  test.each([false, true])('equals the repairmon_* lines of a real scrape after a healthy round (perKeyOutcomes %s)', async (perKey) => {
    const cfg = config(perKey);
    const monitor = createMonitor(cfg, { logger: silent });
    try {
      await monitor.runOnce();
      const text = await monitor.registry.metrics();
      expect(text).not.toMatch(/^repairmon_probe_success\{[^}]*\} 0$/m);
      const projection = projectedSeries(cfg);
      const scraped = familiesOf(text);
      expect(scraped).toEqual(Object.fromEntries(Object.entries(projection.byFamily).filter(([, n]) => n > 0)));
      expect(text.split('\n').filter((l) => l.startsWith('repairmon_')).length).toBe(projection.total);
    } finally {
      await monitor.stop();
    }
  });

  test('at most 8 series per probe by default, 21 with per-key outcome counters', () => {
    expect(projectedSeries(config(false)).perProbe).toBeLessThanOrEqual(8);
    expect(projectedSeries(config(true)).perProbe).toBeGreaterThan(20);
  });
});
