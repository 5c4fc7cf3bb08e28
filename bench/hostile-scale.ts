/**
 * Hostile scale: what the monitor's unauthenticated surface (`GET /`, `GET /probe`, `POST
 * /-/reload`, `/-/healthy` during a page, `check-config`) costs at 1 000 and 5 000 keys, each
 * figure against itself at the smallest size in the same run (bench/README.md, "Hostile scale, how").
 *
 *   npx tsc -p bench/tsconfig.json && node dist/bench/hostile-scale.js [--keys 1000,5000] [--repeats 3]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import YAML from 'yaml';
import { KEY_PREFIXES } from '../api/contract/index.js';
import { childEnv } from './lib/child.js';
import { isEntryPoint, listFlag, numberFlag } from './lib/cli.js';
import { BENCH_KEY_ENV, REPAIRMON_BIN, startMonitorProcess } from './lib/monitor-process.js';
import { freePort } from './lib/port.js';
import { parseSamples, sumOf } from './lib/prom-text.js';
import { columnTable, fixed, median, ratio } from './lib/stats.js';
import { timedMs } from './lib/timed-exec.js';

/** Only the shape of a test key: nothing ever reaches an API with it. */
const BENCH_KEY = `${KEY_PREFIXES.test}hostilescale0123456789abcdef`;
/** A repeated measurement stops repeating once it has spent this long: the quadratic "before" takes minutes a call. */
const REPEAT_BUDGET_MS = 15_000;

type SizeFigures = Awaited<ReturnType<typeof measureSize>>;
export type HostileScaleFigures = Awaited<ReturnType<typeof run>>;

function configYaml(keys: number, baseUrl: string): string {
  const list = Array.from({ length: keys }, (_, i) => ({
    alias: `shop-${i}-test`,
    kind: 'tenant',
    tenant: `shop-${i}`,
    secret: `\${${BENCH_KEY_ENV}}`,
  }));
  // Once a year: after the round at start, nothing runs while the bench measures.
  return YAML.stringify({ targets: [{ name: 'bench', baseUrl, schedule: '0 0 0 1 1 *', timeout: '2s', keys: list }] });
}

/**
 * Repeats a measurement up to `times`, fewer once the budget is spent; the median. A first,
 * uncounted run warms the path up (call index `times`): a process's first on-demand probe read
 * 13 to 55 ms where the next ones read 2 to 3, and one cold sample swung the quick run's ratios.
 */
async function repeated(times: number, measure: (i: number) => Promise<number>): Promise<number> {
  const values: number[] = [];
  await measure(times);
  const started = performance.now();
  for (let i = 0; i < times && (i === 0 || performance.now() - started < REPEAT_BUDGET_MS); i += 1) values.push(await measure(i));
  return median(values);
}

async function ok(url: string, method = 'GET'): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const res = await request(url, { method, headersTimeout: 600_000, bodyTimeout: 600_000 });
  const bytes = (await res.body.arrayBuffer()).byteLength;
  if (res.statusCode !== 200) throw new Error(`${method} ${url} answered ${res.statusCode}`);
  return { ms: performance.now() - started, bytes };
}

/** Waits until the round at start has recorded every probe (failures included). */
async function roundDone(origin: string, probes: number): Promise<void> {
  for (;;) {
    const res = await request(`${origin}/metrics`);
    const done = sumOf(parseSamples(await res.body.text()), 'repairmon_probes_total');
    if (done >= probes) return;
    await sleep(1_000);
  }
}

/** A liveness probe every 10 ms while one status page is served: the longest wait. */
async function healthyDuringPage(origin: string): Promise<{ maxMs: number; count: number }> {
  let served = false;
  const page = ok(`${origin}/`).finally(() => void (served = true));
  const waits: number[] = [];
  while (!served) {
    waits.push((await ok(`${origin}/-/healthy`)).ms);
    await sleep(10);
  }
  await page;
  return { maxMs: Math.max(...waits), count: waits.length };
}

async function checkConfigMs(file: string): Promise<number> {
  const env = childEnv({ [BENCH_KEY_ENV]: BENCH_KEY });
  return timedMs('check-config', [process.execPath, REPAIRMON_BIN, 'check-config', '--config', file], {
    cwd: tmpdir(),
    env,
    timeoutMs: 600_000,
  });
}

async function measureSize(keys: number, repeats: number, dir: string, closed: string) {
  const file = join(dir, `monitor-${keys}.yaml`);
  await writeFile(file, configYaml(keys, closed), { mode: 0o600 });
  const started = performance.now();
  const { program, origin } = await startMonitorProcess(file, BENCH_KEY, { logLevel: 'error', readyMs: 600_000 });
  try {
    const startSeconds = (performance.now() - started) / 1000;
    // 2 shared reads + per key 4 reads, cross_tenant and other_header + invalid_key and public_docs.
    const probes = 2 + keys * 6 + 2;
    await roundDone(origin, probes);
    let statusPageBytes = 0;
    const statusPageMs = await repeated(repeats, async () => {
      const r = await ok(`${origin}/`);
      statusPageBytes = r.bytes;
      return r.ms;
    });
    // A different key each time: one key may be probed on demand once per 10 s.
    const probeMs = await repeated(
      repeats,
      async (i) => (await ok(`${origin}/probe?target=bench&key=shop-${keys - 1 - i}-test&endpoint=clients`)).ms,
    );
    const reloadMs = await repeated(repeats, async () => (await ok(`${origin}/-/reload`, 'POST')).ms);
    const healthyIdleMs = await repeated(20, async () => (await ok(`${origin}/-/healthy`)).ms);
    const during = await healthyDuringPage(origin);
    const checkMs = await repeated(repeats, () => checkConfigMs(file));
    return {
      keys,
      probes,
      startSeconds,
      statusPageMs,
      statusPageBytes,
      probeMs,
      reloadMs,
      healthyIdleMs,
      healthyDuringPageMs: during.maxMs,
      healthyDuringPageCount: during.count,
      checkConfigMs: checkMs,
    };
  } finally {
    await program.stop();
  }
}

export async function run(options: { keys?: readonly number[]; repeats?: number; progress?: (line: string) => void } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'hostile-scale-'));
  try {
    // Nobody listens there: probes fail at once, without a sandbox to measure alongside.
    const closed = `http://127.0.0.1:${await freePort()}/api/v1`;
    const oneKey = join(dir, 'one-key.yaml');
    await writeFile(oneKey, configYaml(1, closed), { mode: 0o600 });
    const checkConfigOneKeyMs = await repeated(3, () => checkConfigMs(oneKey));
    const sizes: SizeFigures[] = [];
    for (const keys of options.keys ?? [1000, 5000]) {
      const figures = await measureSize(keys, options.repeats ?? 5, dir, closed);
      options.progress?.(JSON.stringify(figures));
      sizes.push(figures);
    }
    // checkConfigOneKeyMs: the command's own start-up.
    return { sizes, checkConfigOneKeyMs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The operations measured at each size, as the tables name them. */
export const HOSTILE_OPS: ReadonlyArray<readonly [string, (s: SizeFigures) => number]> = [
  ['GET / (status page)', (s) => s.statusPageMs],
  ['GET /probe (on-demand lookup + 1 probe)', (s) => s.probeMs],
  ['POST /-/reload', (s) => s.reloadMs],
  ['/-/healthy, longest wait during GET /', (s) => s.healthyDuringPageMs],
  ['check-config', (s) => s.checkConfigMs],
];

/** Per operation: ms at each size and the growth from the smallest size (keys x5 -> ~x5 when linear). */
export function describeHostileScale(f: HostileScaleFigures): string {
  const [base, last] = [f.sizes[0], f.sizes.at(-1)];
  type Op = (typeof HOSTILE_OPS)[number];
  const growth = (b: SizeFigures, l: SizeFigures) =>
    [`growth x${fixed(l.keys / b.keys, 0)} keys`, ([, get]: Op) => fixed(ratio(get(l), get(b)), 1)] as const;
  const table = columnTable(HOSTILE_OPS, [
    ['operation', ([name]) => name, 'left'],
    ...f.sizes.map((s) => [`${s.keys} keys ms`, ([, get]: Op) => fixed(get(s), 1)] as const),
    ...(f.sizes.length > 1 && base && last ? [growth(base, last)] : []),
  ]);
  const notes = f.sizes.map(
    (s) =>
      `${s.keys} keys: ${s.probes} probes, serve ready after ${fixed(s.startSeconds, 1)} s, status page ${fixed(s.statusPageBytes / 1024 / 1024, 1)} MiB, /-/healthy idle ${fixed(s.healthyIdleMs, 1)} ms (${s.healthyDuringPageCount} sent during GET /)`,
  );
  return [table, ...notes, `check-config of a one-key file: ${fixed(f.checkConfigOneKeyMs, 0)} ms`].join('\n');
}

if (isEntryPoint(import.meta.url)) {
  const figures = await run({
    keys: listFlag(process.argv, 'keys', { min: 1, max: 50_000 }),
    repeats: numberFlag(process.argv, 'repeats', { min: 1, max: 20 }),
    progress: (line) => console.error(line),
  });
  console.log(describeHostileScale(figures));
}
