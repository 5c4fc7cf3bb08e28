/**
 * Soak: the monitor probes many keys (200 by default) on a 1 s schedule for a bounded time
 * against a sandbox with random faults on, and reports what a leak would show: RSS and open
 * sockets of this process (the monitor's) at start, after the first rounds (warm) and at the
 * end, plus probes done vs scheduled. The sandbox runs in a child process so its memory and
 * sockets are not counted; its keys reach us over IPC, never argv or a log line.
 *
 *   npx tsc -p bench/tsconfig.json && node dist/bench/soak.js [--seconds 180] [--keys 200]
 *   REPAIRMON_SOAK=1 [REPAIRMON_SOAK_SECONDS=180] npx vitest run test/reliability/soak.test.ts
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createLogger } from '../lib/index.js';
import { CANARY_NAMES, type CanaryName, createMonitor, demoConfig } from '../monitor/index.js';
import { DEMO_TENANTS } from '../sandbox/index.js';
import { isEntryPoint, numberFlag } from './lib/cli.js';
import { parseSamples, sumOf } from './lib/prom-text.js';
import { startSandboxProcess } from './lib/sandbox-process.js';

export const SOAK_DEFAULTS = {
  seconds: 180,
  keys: 200,
  concurrency: 64,
  timeoutMs: 800,
  /** Random faults on every path: slow, reset, 5xx, HTML, broken bodies, short 429 storms, stalls. */
  faults:
    'latency:900%0.005;latency:150%0.05;reset%0.005;status:503%0.01;html-502%0.005;invalid-json%0.005;rate-limit-storm:2%0.002;stall%0.001',
  /** The monitor's own default: each probe keeps this many results for ratios and sparklines. */
  historyPerProbe: 60,
} as const;

/** Ticks past a full history before the warm sample: agents open, rings full, JIT settled. */
const WARM_EXTRA_TICKS = 10;

/** The bounds the soak asserts: resource growth from warm to end, not speed. */
export const SOAK_BOUNDS = { rssGrowthMiB: 64, heapGrowthMiB: 16, socketGrowth: 16 } as const;

export type SoakFigures = Awaited<ReturnType<typeof runSoak>>;

/** Open sockets of this process: /proc/self/fd entries that link to `socket:[…]`. */
function countSockets(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:')) count += 1;
    } catch {
      // The fd closed between the listing and the readlink.
    }
  }
  return count;
}

/** A full GC before each sample, so heap figures are retained memory, not garbage not yet swept. */
function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** heapMiB: in use right after a full GC, what is really retained. */
function sample(gc: () => void) {
  gc();
  const mem = process.memoryUsage();
  return { rssMiB: mem.rss / 1048576, heapMiB: mem.heapUsed / 1048576, sockets: countSockets() };
}

/** Sandbox data: the demo tenants, each with a few records, and `keys` tenant keys spread over them. */
function soakData(keys: number): string {
  const slugs = DEMO_TENANTS.map((t) => t.slug);
  const tenants = slugs.map(
    (slug) => `  - { slug: ${slug}, name: ${slug}, clients: [{ id: c1 }], bikes: [{ id: b1 }], repairs: [], logs: [] }`,
  );
  const keyLines = Array.from({ length: keys }, (_, i) => {
    const tenant = slugs[i % slugs.length];
    return `  - { alias: soak-${String(i).padStart(3, '0')}, kind: tenant, tenant: ${tenant}, environment: test, scopes: [clients, bikes, repairs, logs] }`;
  });
  return ['tenants:', ...tenants, 'keys:', ...keyLines, ''].join('\n');
}

async function probeCounts(registry: ReturnType<typeof createMonitor>['registry']) {
  const samples = parseSamples(await registry.metrics());
  const outcomes: Record<string, number> = {};
  let done = 0;
  for (const s of samples.filter((x) => x.name === 'repairmon_probes_total')) {
    const outcome = /outcome="([^"]*)"/.exec(s.labels)?.[1] ?? '?';
    outcomes[outcome] = (outcomes[outcome] ?? 0) + s.value;
    done += s.value;
  }
  const ticks = sumOf(samples, 'repairmon_scheduler_ticks_total');
  return { done, ticks, skipped: sumOf(samples, 'repairmon_scheduler_ticks_skipped_total'), outcomes };
}

export async function runSoak(options: { seconds?: number; keys?: number; historyPerProbe?: number; log?: (line: string) => void } = {}) {
  const seconds = options.seconds ?? SOAK_DEFAULTS.seconds;
  const keys = options.keys ?? SOAK_DEFAULTS.keys;
  const concurrency = SOAK_DEFAULTS.concurrency;
  const historyPerProbe = options.historyPerProbe ?? SOAK_DEFAULTS.historyPerProbe;
  const gc = fullGc();
  const log = options.log ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'repairmon-soak-'));
  const dataFile = join(dir, 'soak.yaml');
  writeFileSync(dataFile, soakData(keys));
  const start = sample(gc);
  const sandbox = await startSandboxProcess({ dataFile, faults: SOAK_DEFAULTS.faults });
  const canaries = Object.fromEntries(CANARY_NAMES.map((n) => [n, false])) as Record<CanaryName, boolean>;
  const config = {
    ...demoConfig(sandbox, { schedule: '* * * * * *', timeoutMs: SOAK_DEFAULTS.timeoutMs, concurrency, canaries }),
    historyPerProbe,
  };
  const monitor = createMonitor(config, { logger: createLogger({ level: 'silent' }) });
  const probesPerRound = monitor.plan().length;
  let maxSockets = start.sockets;
  let warm = start;
  let warmAtS: number | undefined;
  const doneAt: { at: number; done: number }[] = [];
  try {
    await monitor.start();
    const began = Date.now();
    for (let elapsed = 0; elapsed < seconds * 1000; elapsed = Date.now() - began) {
      await sleep(Math.min(5_000, seconds * 1000 - elapsed));
      const now = sample(gc);
      maxSockets = Math.max(maxSockets, now.sockets);
      const counts = await probeCounts(monitor.registry);
      doneAt.push({ at: Date.now() - began, done: counts.done });
      if (warmAtS === undefined && counts.ticks + counts.skipped >= historyPerProbe + WARM_EXTRA_TICKS) {
        warm = now;
        warmAtS = Math.round((Date.now() - began) / 1000);
      }
      log(
        `soak ${Math.round((Date.now() - began) / 1000)}s: rss ${now.rssMiB.toFixed(1)} MiB, sockets ${now.sockets}, probes done ${counts.done}`,
      );
    }
    const end = sample(gc);
    const counts = await probeCounts(monitor.registry);
    const last = doneAt.at(-1)?.done ?? 0;
    const tenBefore = [...doneAt].reverse().find((d) => (doneAt.at(-1)?.at ?? 0) - d.at >= 10_000)?.done ?? 0;
    return {
      seconds,
      keys,
      probesPerRound,
      concurrency,
      historyPerProbe,
      faults: SOAK_DEFAULTS.faults,
      warmAtS,
      start,
      warm,
      end,
      maxSockets,
      ticks: counts.ticks,
      ticksSkipped: counts.skipped,
      probesScheduled: (counts.ticks + counts.skipped) * probesPerRound,
      probesDone: counts.done,
      probesDoneLast10s: last - tenBefore,
      outcomes: counts.outcomes,
    };
  } finally {
    await monitor.stop();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatSoak(f: SoakFigures): string {
  const mib = (n: number) => `${n.toFixed(1)} MiB`;
  const pct = f.probesScheduled === 0 ? 0 : (100 * f.probesDone) / f.probesScheduled;
  return [
    `soak: ${f.keys} keys, ${f.probesPerRound} probes per 1 s round, ${f.seconds} s, concurrency ${f.concurrency}, history ${f.historyPerProbe} per probe`,
    `  faults     ${f.faults}`,
    `  warm at    ${f.warmAtS === undefined ? 'never (the history did not fill: run longer)' : `${f.warmAtS} s (history full + ${WARM_EXTRA_TICKS} ticks)`}`,
    `  RSS        start ${mib(f.start.rssMiB)}, warm ${mib(f.warm.rssMiB)}, end ${mib(f.end.rssMiB)} (warm->end ${mib(f.end.rssMiB - f.warm.rssMiB)}, bound +${SOAK_BOUNDS.rssGrowthMiB} MiB)`,
    `  heap (GC)  start ${mib(f.start.heapMiB)}, warm ${mib(f.warm.heapMiB)}, end ${mib(f.end.heapMiB)} (warm->end ${mib(f.end.heapMiB - f.warm.heapMiB)}, bound +${SOAK_BOUNDS.heapGrowthMiB} MiB)`,
    `  sockets    start ${f.start.sockets}, warm ${f.warm.sockets}, end ${f.end.sockets}, max ${f.maxSockets} (warm->end ${f.end.sockets - f.warm.sockets}, bound +${SOAK_BOUNDS.socketGrowth}; pool cap ${f.concurrency})`,
    `  ticks      ${f.ticks} run, ${f.ticksSkipped} skipped`,
    `  probes     ${f.probesDone} done of ${f.probesScheduled} scheduled (${pct.toFixed(1)}%; skipped ticks are the overlap guard), ${f.probesDoneLast10s} in the final 10-15 s`,
    `  outcomes   ${Object.entries(f.outcomes)
      .filter(([, n]) => n > 0)
      .map(([o, n]) => `${o} ${n}`)
      .join(', ')}`,
  ].join('\n');
}

/** Each stated bound, checked: the test asserts the same list. */
export function soakVerdicts(f: SoakFigures): { name: string; ok: boolean }[] {
  return [
    { name: 'warm point reached', ok: f.warmAtS !== undefined },
    { name: 'RSS', ok: f.end.rssMiB - f.warm.rssMiB < SOAK_BOUNDS.rssGrowthMiB },
    { name: 'heap', ok: f.end.heapMiB - f.warm.heapMiB < SOAK_BOUNDS.heapGrowthMiB },
    { name: 'sockets', ok: f.end.sockets - f.warm.sockets <= SOAK_BOUNDS.socketGrowth },
  ];
}

if (isEntryPoint(import.meta.url)) {
  const argv = process.argv.slice(2);
  const seconds = numberFlag(argv, 'seconds', { min: 10, max: 3600 }) ?? SOAK_DEFAULTS.seconds;
  const keys = numberFlag(argv, 'keys', { min: 1, max: 5000 }) ?? SOAK_DEFAULTS.keys;
  const historyPerProbe = numberFlag(argv, 'history', { min: 2, max: 1000 }) ?? SOAK_DEFAULTS.historyPerProbe;
  const figures = await runSoak({ seconds, keys, historyPerProbe, log: (line) => console.error(line) });
  console.log(formatSoak(figures));
  const verdicts = soakVerdicts(figures);
  console.log(`  verdict    ${verdicts.map((v) => `${v.name} ${v.ok ? 'within' : 'OVER'} bound`).join(', ')}`);
  process.exitCode = verdicts.every((v) => v.ok) ? 0 : 1;
}
