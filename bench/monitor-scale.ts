/**
 * The monitor at 1 000 tenant keys: how many series /metrics carries and how long a render
 * takes, against a baseline of the 6 demo keys measured in the same run. The sandbox serves a
 * generated data file with one tenant and one tenant key per shop; one full probe round runs
 * first so every series has a value, then /metrics is rendered repeatedly over HTTP.
 *
 *   npx tsc -p bench/tsconfig.json && node dist/bench/monitor-scale.js [--keys N] [--renders R]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../lib/index.js';
import { createMonitor, createMonitorServer, demoConfig } from '../monitor/index.js';
import { startSandbox } from '../sandbox/index.js';
import { isEntryPoint, numberFlag } from './lib/cli.js';
import { seriesCount } from './lib/prom-text.js';
import { columnTable, fixed, median, percentile, ratio } from './lib/stats.js';

export type MonitorScaleFigures = Awaited<ReturnType<typeof run>>;

const RECORD = { id: 'x-1', note: 'bench' };

function dataFile(keys: number): unknown {
  const tenants = Array.from({ length: keys }, (_, i) => ({
    slug: `shop-${i}`,
    name: `Shop ${i}`,
    city: 'Łódź',
    clients: [RECORD],
    bikes: [RECORD],
    repairs: [RECORD],
    logs: [RECORD],
  }));
  const scopes = ['clients', 'bikes', 'repairs', 'logs'];
  const tenantKeys = tenants.map((t) => ({ alias: `${t.slug}-test`, kind: 'tenant', tenant: t.slug, environment: 'test', scopes }));
  return { tenants, keys: tenantKeys };
}

async function measure(keys: number | undefined, renders: number, dir: string) {
  const logger = createLogger({ level: 'silent' });
  let file: string | undefined;
  if (keys !== undefined) {
    file = join(dir, `data-${keys}.json`);
    await writeFile(file, JSON.stringify(dataFile(keys)));
  }
  const sandbox = await startSandbox({ rateLimit: 'off', ...(file ? { dataFile: file } : {}) });
  const monitor = createMonitor(demoConfig(sandbox, { schedule: '0 0 1 1 *', timeoutMs: 10_000, concurrency: 32 }), { logger });
  const server = await createMonitorServer(monitor, { host: '127.0.0.1', port: 0, logger });
  try {
    const started = performance.now();
    await monitor.runOnce();
    const roundSeconds = (performance.now() - started) / 1000;
    const times: number[] = [];
    let text = '';
    for (let i = 0; i < renders; i += 1) {
      const t0 = performance.now();
      text = await (await fetch(`${server.url}/metrics`)).text();
      times.push(performance.now() - t0);
    }
    return {
      keys: monitor.config().targets[0]?.keys.length ?? 0,
      probes: monitor.plan().length,
      series: seriesCount(text),
      bytes: Buffer.byteLength(text),
      roundSeconds,
      renderMedianMs: median(times),
      renderP95Ms: percentile(times, 95),
    };
  } finally {
    await server.close();
    await monitor.stop();
    await sandbox.close();
  }
}

export async function run(options: { keys?: number; renders?: number } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'monitor-scale-'));
  try {
    const renders = options.renders ?? 15;
    const baseline = await measure(undefined, renders, dir);
    const scaled = await measure(options.keys ?? 1000, renders, dir);
    return {
      baseline,
      scaled,
      seriesRatio: ratio(scaled.series, baseline.series),
      renderRatio: ratio(scaled.renderMedianMs, baseline.renderMedianMs),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (isEntryPoint(import.meta.url)) {
  const figures = await run({
    keys: numberFlag(process.argv, 'keys', { min: 1, max: 20_000 }),
    renders: numberFlag(process.argv, 'renders', { min: 1, max: 1000 }),
  });
  const table = columnTable(
    [
      { name: 'demo keys (baseline)', f: figures.baseline },
      { name: 'tenant keys', f: figures.scaled },
    ],
    [
      ['config', ({ name }) => name, 'left'],
      ['keys', ({ f }) => String(f.keys)],
      ['probes', ({ f }) => String(f.probes)],
      ['series', ({ f }) => String(f.series)],
      ['series/key', ({ f }) => fixed(f.series / Math.max(1, f.keys), 1)],
      ['MiB', ({ f }) => fixed(f.bytes / 1024 / 1024, 2)],
      ['round s', ({ f }) => fixed(f.roundSeconds, 1)],
      ['render ms p50', ({ f }) => fixed(f.renderMedianMs, 1)],
      ['render ms p95', ({ f }) => fixed(f.renderP95Ms, 1)],
    ],
  );
  console.log(table);
  console.log(`ratios vs baseline: series x${fixed(figures.seriesRatio, 1)}, /metrics render x${fixed(figures.renderRatio, 1)}`);
}
