/**
 * Our monitor against the peer, Debian's prometheus-blackbox-exporter: CPU seconds per 1 000
 * probes of each PROCESS over the same window, at the same probe rate, over the same URLs,
 * against the same sandbox (a third process, not counted) (bench/README.md, "Monitor vs
 * blackbox_exporter, how").
 *
 *   npx tsc -p bench/tsconfig.json && node dist/bench/monitor-vs-blackbox.js [--rate 50] [--seconds 24] [--warmup 3] [--rounds 4]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildPlan, parseConfigText } from '../monitor/index.js';
import { joinUrl } from '../api/contract/index.js';
import { startBlackbox, startRateDriver } from './lib/blackbox.js';
import { isEntryPoint, numberFlag } from './lib/cli.js';
import { BENCH_KEY_ENV, benchMonitorYaml, startMonitorProcess } from './lib/monitor-process.js';
import { loadAverage, sampleCpu, sampleRss } from './lib/proc-stat.js';
import { type SandboxProcess, startSandboxProcess } from './lib/sandbox-process.js';
import { columnTable, describeSpread, fixed, ratio, spreadOf } from './lib/stats.js';

const TENANT = 'rowery-nowak';
const KEY_ALIAS = 'nowak-test';
/** Per-probe timeout on both sides: below the 1 s schedule interval, as the config rules demand. */
const TIMEOUT_MS = 500;
export const TARGET_RATIO = 0.35;

interface VersusOptions {
  /** Probes per second wanted; rounded to what N keys on a 1 s schedule give. */
  readonly rate?: number;
  /** Measured seconds per side, split evenly over the rounds. */
  readonly seconds?: number;
  readonly warmupSeconds?: number;
  /** Rounds alternate which side goes first, so drifting load on a shared machine hits both. */
  readonly rounds?: number;
}

type ProberSideFigures = Awaited<ReturnType<typeof measureWindow>>;
export type VersusFigures = Awaited<ReturnType<typeof run>>;

/** Tenant keys needed for `rate` probes per 1 s tick: each key reads 4 resources, plus `/` and `/docs` once. */
export function keysForRate(rate: number): { keys: number; perTick: number } {
  const keys = Math.max(1, Math.round((rate - 2) / 4));
  return { keys, perTick: 2 + 4 * keys };
}

/** Rounds of one side added up; per-1000 is recomputed from the totals, RSS is the largest. */
export function addSides(sides: readonly ProberSideFigures[]): ProberSideFigures {
  const total = (pick: (s: ProberSideFigures) => number): number => sides.reduce((sum, s) => sum + pick(s), 0);
  const cpuSeconds = total((s) => s.cpuSeconds);
  const probes = total((s) => s.probes);
  return {
    cpuSeconds,
    systemSeconds: total((s) => s.systemSeconds),
    windowSeconds: total((s) => s.windowSeconds),
    probes,
    ok: total((s) => s.ok),
    cpuSecondsPer1000: perThousand(cpuSeconds, probes),
    rssBytes: Math.max(0, ...sides.map((s) => s.rssBytes)),
  };
}

export function perThousand(cpuSeconds: number, probes: number): number {
  return probes > 0 ? (cpuSeconds / probes) * 1000 : Number.NaN;
}

async function measureWindow(pid: number, sandbox: SandboxProcess, seconds: number) {
  await sandbox.resetCounts();
  const before = await sampleCpu(pid);
  await sleep(seconds * 1000);
  const after = await sampleCpu(pid);
  const counts = await sandbox.counts();
  const cpuSeconds = after.cpuSeconds - before.cpuSeconds;
  return {
    cpuSeconds,
    /** The kernel's share (sockets, syscalls). */
    systemSeconds: after.systemSeconds - before.systemSeconds,
    windowSeconds: (after.atMs - before.atMs) / 1000,
    /** Requests that reached the sandbox in the window. */
    probes: counts.total,
    ok: counts.byStatus['200'] ?? 0,
    cpuSecondsPer1000: perThousand(cpuSeconds, counts.total),
    rssBytes: await sampleRss(pid),
  };
}

type ChildSide = { pid: number; close: () => Promise<void> };

/** One side's window after a warm-up; `start` gives the measured process and what drives it. */
async function measureSide(sandbox: SandboxProcess, o: Required<VersusOptions>, start: () => Promise<ChildSide>) {
  const side = await start();
  try {
    await sleep(o.warmupSeconds * 1000);
    return await measureWindow(side.pid, sandbox, o.seconds);
  } finally {
    await side.close();
  }
}

export async function run(options: VersusOptions = {}) {
  const o: Required<VersusOptions> = { rate: 50, seconds: 24, warmupSeconds: 3, rounds: 4, ...options };
  const window = { ...o, seconds: o.seconds / o.rounds };
  const { keys, perTick } = keysForRate(o.rate);
  const dir = await mkdtemp(join(tmpdir(), 'repairmon-versus-'));
  const sandbox = await startSandboxProcess();
  try {
    const key = sandbox.key(KEY_ALIAS);
    const yaml = benchMonitorYaml({
      baseUrl: sandbox.baseUrl,
      keys,
      tenant: TENANT,
      schedule: '* * * * * *',
      timeout: `${TIMEOUT_MS}ms`,
      canaries: false,
    });
    const parsed = parseConfigText(yaml, { env: { [BENCH_KEY_ENV]: key }, baseDir: dir });
    if (!parsed.ok) throw new Error(`bench monitor config rejected: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    const urls = buildPlan(parsed.config).map((p) => joinUrl(sandbox.baseUrl, p.path));
    if (urls.length !== perTick) throw new Error(`expected ${perTick} probes per tick from ${keys} keys, the plan has ${urls.length}`);
    const file = join(dir, 'monitor.yaml');
    await writeFile(file, yaml, { mode: 0o600 });
    const startPeer = async () => {
      const blackbox = await startBlackbox(dir, key, 'bearer', TIMEOUT_MS);
      let next = 0;
      const driver = startRateDriver(perTick, () => blackbox.probe(urls[next++ % urls.length] ?? ''));
      return { pid: blackbox.program.pid, close: () => driver.stop().then(() => blackbox.close()) };
    };
    const startMine = async () => {
      const monitor = await startMonitorProcess(file, key);
      return { pid: monitor.program.pid, close: monitor.close };
    };
    const peer: ProberSideFigures[] = [];
    const mine: ProberSideFigures[] = [];
    for (let round = 0; round < o.rounds; round += 1) {
      const order = [
        () => measureSide(sandbox, window, startPeer).then((f) => peer.push(f)),
        () => measureSide(sandbox, window, startMine).then((f) => mine.push(f)),
      ];
      for (const measure of round % 2 === 0 ? order : order.reverse()) await measure();
    }
    const rounds = spreadOf(mine.map((m, i) => ratio(m.cpuSecondsPer1000, peer[i]?.cpuSecondsPer1000 ?? Number.NaN)));
    const blackbox = addSides(peer);
    const ours = addSides(mine);
    return {
      rate: perTick,
      keys,
      seconds: o.seconds,
      distinctUrls: new Set(urls).size,
      blackbox,
      ours,
      /** Ours over the peer per round; the headline is their median (the totals' ratio is `totalRatio`). */
      rounds,
      ratio: rounds.median,
      totalRatio: ratio(ours.cpuSecondsPer1000, blackbox.cpuSecondsPer1000),
      loadAverage: await loadAverage(),
    };
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function describeVersus(f: VersusFigures): string {
  const sides = [
    { name: 'blackbox_exporter', s: f.blackbox },
    { name: 'repairmon serve', s: f.ours },
  ];
  const table = columnTable(sides, [
    ['process', ({ name }) => name, 'left'],
    ['cpu s', ({ s }) => fixed(s.cpuSeconds, 2)],
    ['of which sys', ({ s }) => fixed(s.systemSeconds, 2)],
    ['window s', ({ s }) => fixed(s.windowSeconds, 1)],
    ['probes', ({ s }) => String(s.probes)],
    ['ok (200)', ({ s }) => String(s.ok)],
    ['cpu s / 1000 probes', ({ s }) => fixed(s.cpuSecondsPer1000, 3)],
    ['rss MiB', ({ s }) => fixed(s.rssBytes / 2 ** 20, 0)],
  ]);
  const verdict = f.ratio <= TARGET_RATIO ? 'MET' : 'MISSED';
  return [
    `${f.rate} probes/s (${f.keys} tenant keys x 4 reads + / and /docs, ${f.distinctUrls} URLs), ${f.seconds} s measured per side in ${f.rounds.rounds} alternating rounds (ratio ${describeSpread(f.rounds, 3)}), load ${fixed(f.loadAverage, 2)}`,
    table,
    `ratio ours / blackbox (cpu per probe): ${fixed(f.ratio, 3)}  target <= ${TARGET_RATIO}: ${verdict}`,
  ].join('\n');
}

if (isEntryPoint(import.meta.url)) {
  const rate = numberFlag(process.argv, 'rate', { min: 6, max: 2000 });
  const seconds = numberFlag(process.argv, 'seconds', { min: 1, max: 600 });
  const warmupSeconds = numberFlag(process.argv, 'warmup', { min: 0, max: 60 });
  const rounds = numberFlag(process.argv, 'rounds', { min: 1, max: 10 });
  const figures = await run({
    ...(rate !== undefined ? { rate } : {}),
    ...(seconds !== undefined ? { seconds } : {}),
    ...(warmupSeconds !== undefined ? { warmupSeconds } : {}),
    ...(rounds !== undefined ? { rounds } : {}),
  });
  console.log(describeVersus(figures));
}
