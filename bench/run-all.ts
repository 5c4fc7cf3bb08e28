/**
 * `npm run bench`: every bench's `run()` in turn, each bounded in time, then ONE summary table,
 * also written as JSON under bench/results/ (git-ignored).
 *
 *   npm run bench [-- --quick] [-- --only monitor-vs-blackbox,scale] [-- --compare]
 *   npm run bench -- --write-baseline "why"   (bench/README.md, "The guard")
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { run as runAlertLatency } from './alert-latency.js';
import { run as runClientOverhead } from './client-overhead.js';
import { describeGenerator, run as runGenerator } from './generator.js';
import { describeHostileScale, run as runHostileScale } from './hostile-scale.js';
import { renderAlertTable } from './lib/alert-report.js';
import {
  BASELINE_FILE,
  type BaselineFile,
  type Mode,
  type RowsByBench,
  WORSE_LIMIT,
  compareWithBaseline,
  comparisonFails,
  nextBaseline,
  renderComparison,
} from './lib/baseline.js';
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
  const versusQuick = quick ? { seconds: 12, warmupSeconds: 2 } : {};
  return [
    bench('sandbox-throughput', quick ? 60 : 90, () => runThroughput(quick ? { seconds: 2, rounds: 5 } : {}), throughputRows),
    bench('client-overhead', quick ? 90 : 240, () => runClientOverhead(quick ? { calls: 3000, rounds: 10, warmup: 300 } : {}), clientRows),
    bench('monitor-vs-blackbox', quick ? 90 : 150, () => runVersus(versusQuick), versusRows, describeVersus),
    // The same at 4x the rate: shows whether the ratio is a fixed per-tick cost or per probe.
    bench('monitor-vs-blackbox-200', quick ? 90 : 150, () => runVersus({ rate: 200, ...versusQuick }), versusRows, describeVersus),
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
      () => runHostileScale(quick ? { keys: [500, 2500] } : {}),
      hostileScaleRows,
      describeHostileScale,
    ),
    bench(
      'generator',
      quick ? 240 : 420,
      () => runGenerator(quick ? { scaffolds: 3, tests: 3 } : { scaffolds: 5, tests: 3 }),
      generatorRows,
      describeGenerator,
    ),
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

export interface RunArgs {
  readonly quick: boolean;
  readonly only: string[] | undefined;
  /** Hold today's ratios against bench/baseline.json; exit 1 when one is more than 20% worse. */
  readonly compare: boolean;
  /** Rewrite bench/baseline.json's set for this mode (quick or full) with today's ratios, saying why. */
  readonly writeBaseline: string | undefined;
}

export function parseRunArgs(argv: readonly string[], known: readonly string[]): RunArgs {
  const quick = argv.includes('--quick');
  const compare = argv.includes('--compare');
  const w = argv.indexOf('--write-baseline');
  const writeBaseline = w === -1 ? undefined : (argv[w + 1] ?? '');
  if (writeBaseline !== undefined && (writeBaseline.trim() === '' || writeBaseline.startsWith('--')))
    throw new Error('--write-baseline takes the reason, in quotes: --write-baseline "why the figures moved"');
  const index = argv.indexOf('--only');
  if (index === -1) return { quick, only: undefined, compare, writeBaseline };
  const only = (argv[index + 1] ?? '').split(',').filter((s) => s !== '');
  const unknown = only.filter((name) => !known.includes(name));
  if (only.length === 0 || unknown.length > 0)
    throw new Error(`--only takes a comma-separated list of ${known.join(', ')}; got "${argv[index + 1] ?? ''}"`);
  return { quick, only, compare, writeBaseline };
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
  const rowsByBench: Record<string, SummaryRow[]> = {};
  for (const b of chosen) {
    console.log(`\n== ${b.name} (at most ${b.limitSeconds} s, load ${(await loadAverage()).toFixed(2)})`);
    const outcome = await bounded(b.start, b.limitSeconds);
    outcomes[b.name] = outcome;
    if (outcome.kind === 'ok' && b.describe) console.log(b.describe(outcome.figures));
    else if (outcome.kind !== 'ok')
      console.log(outcome.kind === 'failed' ? `FAILED: ${outcome.message}` : `TIMED OUT after ${outcome.limitSeconds} s`);
    console.log(`(${outcome.seconds.toFixed(1)} s)`);
    const benchRows = outcomeRows(b.name, outcome, b.rows);
    rowsByBench[b.name] = benchRows;
    rows.push(...benchRows);
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
  const failed = Object.values(outcomes).some((o) => o.kind !== 'ok');
  const guardFailed = await guard(args, rowsByBench, finishedAt);
  return failed || guardFailed ? 1 : 0;
}

/** `--compare` and `--write-baseline`: true when the comparison failed. */
async function guard(args: RunArgs, ran: RowsByBench, at: string): Promise<boolean> {
  if (!args.compare && args.writeBaseline === undefined) return false;
  const mode: Mode = args.quick ? 'quick' : 'full';
  const file = await readBaseline();
  let fails = false;
  if (args.compare) {
    const set = file[mode];
    if (set === undefined) {
      console.log(`\n--compare: ${BASELINE_FILE} has no ${mode} set; write one with --write-baseline "<why>"`);
      fails = true;
    } else {
      const comparisons = compareWithBaseline(set, ran);
      console.log(
        `\nAgainst the ${mode} baseline (${set.writtenAt}: ${set.reason}); a figure fails when more than ${WORSE_LIMIT * 100} % worse`,
      );
      console.log(renderComparison(comparisons));
      fails = comparisonFails(comparisons);
    }
  }
  if (args.writeBaseline !== undefined) {
    await writeFile(BASELINE_FILE, `${JSON.stringify(nextBaseline(file, mode, ran, at, args.writeBaseline), null, 2)}\n`);
    console.log(`\n${mode} baseline rewritten: ${BASELINE_FILE} (commit it with the change that moved it, the reason in CHANGELOG.md)`);
  }
  return fails;
}

async function readBaseline(): Promise<BaselineFile> {
  try {
    return JSON.parse(await readFile(BASELINE_FILE, 'utf8')) as BaselineFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`${BASELINE_FILE} is unreadable: ${error instanceof Error ? error.message : String(error)}`);
  }
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
