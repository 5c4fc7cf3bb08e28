/**
 * The monitor at 100, 1 000 and 5 000 tenant keys on one schedule: one spread tick per size,
 * each in a fresh child process (lib/scale-child.ts) against the sandbox in another
 * (bench/README.md, "Scale, how"). Targets at 1 000 keys: 100 % done, delay p99 < 1 s, `/metrics` < 250 ms.
 *
 *   npx tsc -p bench/tsconfig.json && node dist/bench/monitor-scale-matrix.js [--keys 100,1000,5000] [--interval 60]
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { isEntryPoint, listFlag, numberFlag } from './lib/cli.js';
import { loadAverage, sampleCpu, sampleRss } from './lib/proc-stat.js';
import { startSandboxProcess } from './lib/sandbox-process.js';
import type { FromScaleChild, ScaleJob } from './lib/scale-child.js';
import { columnTable, fixed, median } from './lib/stats.js';

const CHILD = fileURLToPath(new URL('./lib/scale-child.js', import.meta.url));
const TENANT = 'rowery-nowak';
const KEY_ALIAS = 'nowak-test';
export const TARGET_KEYS = 1000;
const TARGETS = { donePercent: 100, delayP99Seconds: 1, renderMs: 250 } as const;

export interface ScaleOptions {
  readonly keys?: readonly number[];
  /** Schedule interval in seconds (a divisor of 60); the real target is 60. */
  readonly intervalSeconds?: number;
}

export type ScaleRow = Awaited<ReturnType<typeof measureSize>>;
export type ScaleFigures = Awaited<ReturnType<typeof run>>;

/** Per-probe timeout for an interval: the default 10 s, but never more than a quarter of it. */
export function timeoutFor(intervalSeconds: number): number {
  return Math.max(1, Math.min(10, Math.floor(intervalSeconds / 4)));
}

export function donePercent(row: { doneInInterval: number; scheduled: number }): number {
  return row.scheduled > 0 ? (row.doneInInterval / row.scheduled) * 100 : Number.NaN;
}

export function scaleVerdicts(row: ScaleRow) {
  const verdict = (met: boolean): 'MET' | 'MISSED' => (met ? 'MET' : 'MISSED');
  return {
    done: verdict(donePercent(row) >= TARGETS.donePercent),
    delay: verdict(row.delayP99Seconds < TARGETS.delayP99Seconds),
    render: verdict(median(row.renderMs) < TARGETS.renderMs),
  };
}

async function measureSize(job: ScaleJob) {
  const child = fork(CHILD, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const pid = child.pid ?? 0;
  const exited = once(child, 'exit');
  let peakRssBytes = 0;
  const sampler = setInterval(() => {
    sampleRss(pid).then(
      (rss) => (peakRssBytes = Math.max(peakRssBytes, rss)),
      () => undefined,
    );
  }, 250);
  try {
    const [first] = (await once(child, 'message')) as [FromScaleChild];
    if (first.op !== 'ready') throw new Error(`scale child sent "${first.op}" before "ready"`);
    const before = await sampleCpu(pid);
    child.send(job);
    const [reply] = (await Promise.race([
      once(child, 'message'),
      exited.then(() => [{ op: 'failed', message: 'the scale child exited without an answer' }]),
    ])) as [FromScaleChild];
    if (reply.op !== 'done') throw new Error(`scale at ${job.keys} keys: ${reply.op === 'failed' ? reply.message : reply.op}`);
    const after = await sampleCpu(pid).catch(() => before);
    return {
      ...reply.figures,
      intervalSeconds: job.intervalSeconds,
      peakRssBytes: Math.max(peakRssBytes, reply.figures.rssBytes),
      cpuSeconds: after.cpuSeconds - before.cpuSeconds,
    };
  } finally {
    clearInterval(sampler);
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

export async function run(options: ScaleOptions = {}) {
  const keys = options.keys ?? [100, 1000, 5000];
  const intervalSeconds = options.intervalSeconds ?? 60;
  const concurrency = 16;
  const sandbox = await startSandboxProcess();
  try {
    const key = sandbox.key(KEY_ALIAS);
    const rows: ScaleRow[] = [];
    for (const n of keys) {
      rows.push(
        await measureSize({
          keys: n,
          baseUrl: sandbox.baseUrl,
          key,
          tenant: TENANT,
          intervalSeconds,
          timeoutSeconds: timeoutFor(intervalSeconds),
          concurrency,
          renders: 3,
        }),
      );
    }
    return { intervalSeconds, concurrency, rows, loadAverage: await loadAverage() };
  } finally {
    await sandbox.close();
  }
}

export function describeScale(f: ScaleFigures): string {
  const targets = (r: ScaleRow): string => {
    const v = scaleVerdicts(r);
    return r.keys === TARGET_KEYS ? `done ${v.done}, delay ${v.delay}, render ${v.render}` : '';
  };
  const table = columnTable(f.rows, [
    ['keys', (r) => String(r.keys)],
    ['scheduled', (r) => String(r.scheduled)],
    ['done in interval', (r) => `${r.doneInInterval} (${fixed(donePercent(r), 1)} %)`],
    ['tick s', (r) => fixed(r.tickSeconds, 1) + (r.tickFinished ? '' : ' (cut)')],
    ['delay p99 s', (r) => `${fixed(r.delayP99Seconds, 3)} (<= ${fixed(r.delayP99AtMostSeconds, 3)})`],
    ['peak rss MiB', (r) => fixed(r.peakRssBytes / 2 ** 20, 0)],
    ['cpu s', (r) => fixed(r.cpuSeconds, 1)],
    ['series', (r) => String(r.series)],
    ['series/key', (r) => fixed(r.series / r.keys, 1)],
    ['metrics MiB', (r) => fixed(r.metricsBytes / 2 ** 20, 2)],
    ['render ms', (r) => r.renderMs.map((ms) => fixed(ms, 0)).join('/')],
    [`targets (at ${TARGET_KEYS})`, targets, 'left'],
  ]);
  return `monitor scale: one spread tick per size, ${f.intervalSeconds} s interval, concurrency ${f.concurrency}, canaries on, load ${fixed(f.loadAverage, 2)}\n${table}`;
}

if (isEntryPoint(import.meta.url)) {
  const keys = listFlag(process.argv, 'keys', { min: 1, max: 20_000 });
  console.log(describeScale(await run({ keys, intervalSeconds: numberFlag(process.argv, 'interval', { min: 5, max: 60 }) })));
}
