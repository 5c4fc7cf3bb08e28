/**
 * Hostile scale, counted rather than timed: the work of a plan, a status page, a reload and a
 * `/probe` at n and 2n keys. Linear work doubles when the keys double; the n² scans this guards
 * against (every key's tenants read for each key, every read filtered for each row of the grid,
 * the whole plan rebuilt for each `/probe`) quadruple. Counts are reads of a key's `tenants`
 * and of a probe's fields, through getters and proxies: they see work, not time, so a loaded
 * machine cannot make them flaky. Wall-clock figures are bench/hostile-scale.ts's job.
 *
 * And `/-/healthy` must never wait on page rendering: a liveness probe sent while a big status
 * page is being built is answered before the page is finished.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_PREFIXES } from '../../api/contract/index.js';
import { parseConfigValue } from '../../monitor/config/load.js';
import type { MonitorConfig, MonitorKey } from '../../monitor/config/types.js';
import type { History } from '../../monitor/history.js';
import { createMonitorServer, type MonitorServer } from '../../monitor/http/server.js';
import { statusPageParts } from '../../monitor/http/status-page.js';
import { buildPlan } from '../../monitor/probe/plan.js';
import type { ProbeSpec } from '../../monitor/probe/spec.js';
import { type Monitor, createMonitor } from '../../monitor/service.js';
import { createLogger } from '../../lib/index.js';
import { closedPort } from '../helpers/rig.js';

const silent = createLogger({ level: 'silent' });

const KEY = `${KEY_PREFIXES.test}scalelinear0123456789abcdef`;
const N = 200;

/** n tenant keys of n shops on one target, each counting the reads of its `tenants`. */
function countingConfig(n: number, baseUrl = 'http://127.0.0.1:9/api/v1'): { config: MonitorConfig; reads: () => number } {
  const parsed = parseConfigValue(
    {
      targets: [
        { name: 'scale', baseUrl, timeout: '2s', keys: [{ alias: 'shop-0-test', kind: 'tenant', tenant: 'shop-0', secret: '${KEY}' }] },
      ],
    },
    { env: { KEY }, baseDir: process.cwd() },
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const target = parsed.config.targets[0]!;
  const template = target.keys[0]!;
  let reads = 0;
  const keys = Array.from({ length: n }, (_, i): MonitorKey => {
    const tenants = [`shop-${i}`];
    const key = { ...template, alias: `shop-${i}-test`, tenant: `shop-${i}` };
    return Object.defineProperty(key, 'tenants', { enumerable: true, get: () => ((reads += 1), tenants) });
  });
  return { config: { ...parsed.config, targets: [{ ...target, keys }] }, reads: () => reads };
}

/** The plan's probes behind proxies counting every field read. */
function countingPlan(plan: readonly ProbeSpec[]): { plan: ProbeSpec[]; gets: () => number } {
  let gets = 0;
  const wrapped = plan.map((spec) => new Proxy(spec, { get: (t, p, r): unknown => ((gets += 1), Reflect.get(t, p, r)) }));
  return { plan: wrapped, gets: () => gets };
}

/** Work at 2n over work at n: 2 when linear, 4 when quadratic. */
function growth(work: (n: number) => number): number {
  return work(2 * N) / work(N);
}

describe('work grows linearly with the keys', () => {
  it('a plan reads each key a bounded number of times (the cross-tenant canary no longer scans every key per key)', () => {
    const g = growth((n) => {
      const { config, reads } = countingConfig(n);
      buildPlan(config);
      return reads();
    });
    expect(g).toBeLessThan(2.5);
  });

  it('the status page reads each probe a bounded number of times (no per-row filter over every read)', () => {
    const g = growth((n) => {
      const { config } = countingConfig(n);
      const counted = countingPlan(buildPlan(config));
      const html = [
        ...statusPageParts({
          targets: config.targets,
          plan: counted.plan,
          window: () => [],
          maintenance: () => undefined,
          shard: '0/1',
          now: 0,
        }),
      ].join('');
      expect(html).toContain(`shop-${n - 1}-test`);
      return counted.gets();
    });
    expect(g).toBeLessThan(2.5);
  });

  it('a reload reads each key a bounded number of times', async () => {
    const work = async (n: number): Promise<number> => {
      const first = countingConfig(n);
      const monitor = createMonitor(first.config, { logger: silent });
      const next = countingConfig(n);
      await monitor.reload({ ok: true, config: next.config });
      await monitor.stop();
      return next.reads();
    };
    expect((await work(2 * N)) / (await work(N))).toBeLessThan(2.5);
  });
});

describe('over HTTP', () => {
  let monitor: Monitor | undefined;
  let server: MonitorServer | undefined;
  afterEach(async () => {
    await server?.close();
    await monitor?.stop();
    server = undefined;
    monitor = undefined;
  });

  async function serve(config: MonitorConfig, wrap: (m: Monitor) => Monitor = (m) => m): Promise<string> {
    monitor = createMonitor(config, { logger: silent });
    server = await createMonitorServer(wrap(monitor), { host: '127.0.0.1', port: 0, logger: silent });
    return server.url;
  }

  it('a /probe lookup does no work that grows with the keys (no plan rebuilt per request)', async () => {
    const perRequest = async (n: number): Promise<number> => {
      const { config, reads } = countingConfig(n, `http://127.0.0.1:${await closedPort()}/api/v1`);
      const url = await serve(config);
      await fetch(`${url}/probe?target=scale&key=shop-0-test&endpoint=clients`).then((r) => r.text());
      const before = reads();
      // A different key each time: one key may be probed on demand once per interval.
      for (let i = 1; i <= 4; i += 1) {
        const res = await fetch(`${url}/probe?target=scale&key=shop-${i}-test&endpoint=clients`);
        expect(res.status).toBe(200);
        await res.text();
      }
      await server?.close();
      await monitor?.stop();
      return (reads() - before) / 4;
    };
    const small = await perRequest(N);
    const large = await perRequest(2 * N);
    expect(large).toBeLessThanOrEqual(small + 1);
  });

  it('/-/healthy is answered while a big status page is still being built', async () => {
    const { config } = countingConfig(500);
    const cells = buildPlan(config).length;
    let windowCalls = 0;
    let healthy: Promise<{ status: number; windowCallsThen: number }> | undefined;
    const countWindows = (m: Monitor): Monitor => {
      const history = (): History => {
        const real = m.history;
        return {
          ...real,
          window: (id) => {
            windowCalls += 1;
            // From inside the page's first cell: a liveness probe arrives mid-render.
            healthy ??= get(`${url}/-/healthy`).then((status) => ({ status, windowCallsThen: windowCalls }));
            return real.window(id);
          },
        };
      };
      return Object.create(m, { history: { get: history } }) as Monitor;
    };
    const url = await serve(config, countWindows);
    const page = await fetch(`${url}/`).then((r) => r.text());
    expect(page).toContain('shop-499-test');
    expect(page.trimEnd()).toMatch(/<\/html>$/);
    const answer = await healthy;
    expect(answer?.status).toBe(200);
    // Answered between two pieces of the page, with at least a probe's worth of cells still to
    // make (the summary and each section's badge read every probe before the first row).
    expect(windowCalls - (answer?.windowCallsThen ?? windowCalls)).toBeGreaterThan(cells);
  });
});

/** A GET on its own connection, resolving to the status once the answer is complete. */
function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}
