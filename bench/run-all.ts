/**
 * `npm run bench`: every bench's `run()` in turn, each bounded in time, then ONE summary table,
 * also written as JSON under bench/results/ (git-ignored).
 *
 *   npm run build && npm run bench [-- --quick] [-- --only monitor-vs-blackbox,scale]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { run as runAlertLatency } from './alert-latency.js';
import { run as runClientOverhead } from './client-overhead.js';
import { describeGenerator, run as runGenerator } from './generator.js';
import { describeHostileScale, run as runHostileScale } from './hostile-scale.js';
import { renderAlertTable } from './lib/alert-report.js';
import { isEntryPoint } from './lib/cli.js';
import { loadAverage } from './lib/proc-stat.js';
import {
  type BenchOutcome,
  type SummaryRow,
  alertRows,
  clientRows,
  generatorRows,
  hostileScaleRows,
  outcomeRows,
  renderSummary,
  scaleRows,
  throughputRows,
  versusRows,
} from './lib/summary.js';
import { describeScale } from './monitor-scale-matrix.js';
import { describeVersus, run as runVersus } from './monitor-vs-blackbox.js';
import { run as runThroughput } from './sandbox-throughput.js';
import { describeRenderBaseline, run as runScale } from './scale.js';

const RESULTS_DIR = resolve(import.meta.dirname, '..', '..', 'bench', 'results');

interface Bench {
  readonly name: string;
  readonly limitSeconds: number;
  readonly start: () => Promise<unknown>;
  readonly rows: (figures: unknown) => SummaryRow[];
  /** The bench's own detailed print-out, shown as it finishes. */
  readonly describe?: (figures: unknown) => string;
}

/** The benches in the order they run; `quick` trades precision for a run of a few minutes. */
export function benches(quick: boolean): Bench[] {
  // Each bench's rows and print-out take its own figures; the table holds them as unknown.
  const bench = <F>(
    name: string,
    limitSeconds: number,
    start: () => Promise<F>,
    rows: (f: F) => SummaryRow[],
    describe?: (f: F) => string,
  ) => ({ name, limitSeconds, start, rows, describe }) as Bench;
  const versusQuick = quick ? { seconds: 6, warmupSeconds: 2 } : {};
  return [
    bench('sandbox-throughput', quick ? 30 : 60, () => runThroughput(quick ? { seconds: 2, rounds: 1 } : {}), throughputRows),
    bench('client-overhead', quick ? 90 : 240, () => runClientOverhead(quick ? { calls: 600, rounds: 6, warmup: 100 } : {}), clientRows),
    bench('monitor-vs-blackbox', quick ? 60 : 120, () => runVersus(versusQuick), versusRows, describeVersus),
    // The same at 4x the rate: shows whether the ratio is a fixed per-tick cost or per probe.
    bench('monitor-vs-blackbox-200', quick ? 60 : 120, () => runVersus({ rate: 200, ...versusQuick }), versusRows, describeVersus),
    bench(
      'scale',
      quick ? 150 : 480,
      () => runScale(quick ? { keys: [100, 1000], intervalSeconds: 10, renders: 3 } : {}),
      scaleRows,
      (f) => `${describeScale(f.matrix)}\n${describeRenderBaseline(f.renderBaseline)}`,
    ),
    // The unauthenticated pages, reload and check-config at 1 000 and 5 000 keys: linear or not.
    bench(
      'hostile-scale',
      quick ? 240 : 600,
      () => runHostileScale(quick ? { keys: [500, 2500], repeats: 1 } : {}),
      hostileScaleRows,
      describeHostileScale,
    ),
    bench('generator', quick ? 240 : 420, () => runGenerator(quick ? { scaffolds: 1, tests: 1 } : {}), generatorRows, describeGenerator),
    // The same in quick mode: its length is the breach's 1 h hold at a 1 s schedule (2 minutes).
    bench('alert-latency', 300, () => runAlertLatency(), alertRows, renderAlertTable),
  ];
}

/** Runs one bench, giving up on it (not killing it) after its limit so the others still run. */
export async function bounded<F>(start: () => Promise<F>, limitSeconds: number): Promise<BenchOutcome<F>> {
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<BenchOutcome<F>>((res) => {
    timer = setTimeout(() => res({ kind: 'timed_out', seconds: seconds(), limitSeconds }), limitSeconds * 1000);
  });
  const work = start().then(
    (figures): BenchOutcome<F> => ({ kind: 'ok', seconds: seconds(), figures }),
    (error: unknown): BenchOutcome<F> => ({
      kind: 'failed',
      seconds: seconds(),
      message: error instanceof Error ? error.message : String(error),
    }),
  );
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

export function parseRunArgs(argv: readonly string[], known: readonly string[]): { quick: boolean; only: string[] | undefined } {
  const quick = argv.includes('--quick');
  const index = argv.indexOf('--only');
  if (index === -1) return { quick, only: undefined };
  const only = (argv[index + 1] ?? '').split(',').filter((s) => s !== '');
  const unknown = only.filter((name) => !known.includes(name));
  if (only.length === 0 || unknown.length > 0)
    throw new Error(`--only takes a comma-separated list of ${known.join(', ')}; got "${argv[index + 1] ?? ''}"`);
  return { quick, only };
}

async function machine(): Promise<Record<string, unknown>> {
  const cores = cpus();
  return {
    cores: cores.length,
    cpuModel: cores[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: process.platform,
    loadAverage1m: await loadAverage(),
  };
}

async function main(): Promise<number> {
  const all = benches(false).map((b) => b.name);
  const args = parseRunArgs(process.argv.slice(2), all);
  const chosen = benches(args.quick).filter((b) => !args.only || args.only.includes(b.name));
  const startedAt = new Date().toISOString();
  const machineBefore = await machine();
  const outcomes: Record<string, BenchOutcome<unknown>> = {};
  const rows: SummaryRow[] = [];
  for (const b of chosen) {
    console.log(`\n== ${b.name} (at most ${b.limitSeconds} s, load ${(await loadAverage()).toFixed(2)})`);
    const outcome = await bounded(b.start, b.limitSeconds);
    outcomes[b.name] = outcome;
    if (outcome.kind === 'ok' && b.describe) console.log(b.describe(outcome.figures));
    else if (outcome.kind !== 'ok')
      console.log(outcome.kind === 'failed' ? `FAILED: ${outcome.message}` : `TIMED OUT after ${outcome.limitSeconds} s`);
    console.log(`(${outcome.seconds.toFixed(1)} s)`);
    rows.push(...outcomeRows(b.name, outcome, b.rows));
  }
  const finishedAt = new Date().toISOString();
  const machineAfter = await machine();
  console.log(
    `\nSummary (${args.quick ? 'QUICK run: smoke figures only' : 'full run'}; ${String(machineBefore['cores'])} cores, load ${String(machineBefore['loadAverage1m'])} -> ${String(machineAfter['loadAverage1m'])}, ${startedAt} .. ${finishedAt})`,
  );
  console.log(renderSummary(rows));
  await mkdir(RESULTS_DIR, { recursive: true });
  const report = {
    startedAt,
    finishedAt,
    quick: args.quick,
    machine: { ...machineBefore, loadAverage1mAfter: machineAfter['loadAverage1m'] },
    summary: rows,
    outcomes,
  };
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const file = join(RESULTS_DIR, `bench-${startedAt.replace(/[:.]/g, '-')}.json`);
  await writeFile(file, json);
  await writeFile(join(RESULTS_DIR, 'latest.json'), json);
  console.log(`\nwritten: ${file}`);
  return Object.values(outcomes).some((o) => o.kind !== 'ok') ? 1 : 0;
}

if (isEntryPoint(import.meta.url)) {
  // A bench given up on may still hold sockets or children: exit rather than wait for it.
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(2);
    },
  );
}
