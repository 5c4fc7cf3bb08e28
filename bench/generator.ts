/**
 * The generator's cost to a user: `repairmon new` without install (against `repairmon --help`,
 * the CLI's bare start-up, measured in the same run), then one `npm install --prefer-offline`
 * of the generated project, then its `npm test` (against `npm --version`, npm's own start-up).
 * Everything happens in a temp dir that is removed afterwards.
 *
 *   npx tsc -p bench/tsconfig.json && node dist/bench/generator.js [--scaffolds 3] [--tests 2]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv } from './lib/child.js';
import { isEntryPoint, numberFlag } from './lib/cli.js';
import { REPAIRMON_BIN } from './lib/monitor-process.js';
import { loadAverage } from './lib/proc-stat.js';
import { fixed, median, ratio, renderTable } from './lib/stats.js';
import { timedMs } from './lib/timed-exec.js';

const TENANT = 'rowery-nowak';
const NPM = 'npm';

export type GeneratorFigures = Awaited<ReturnType<typeof run>>;

/** Flags that answer every prompt, so the run never waits for a terminal. */
export function scaffoldArgs(name: string): string[] {
  return ['new', name, '--yes', '--skip-install', '--no-interactive', '--tenant', TENANT];
}

async function repeat(times: number, once: (i: number) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < times; i += 1) out.push(await once(i));
  return out;
}

export async function run(options: { scaffolds?: number; tests?: number } = {}) {
  const o = { scaffolds: options.scaffolds ?? 3, tests: options.tests ?? 2 };
  const work = await mkdtemp(join(tmpdir(), 'repairmon-gen-bench-'));
  const env = childEnv({ CI: '1', FORCE_COLOR: '0' });
  const inWork = { cwd: work, env, timeoutMs: 120_000 };
  try {
    const cliStartMs = await repeat(o.scaffolds, () => timedMs('repairmon --help', [process.execPath, REPAIRMON_BIN, '--help'], inWork));
    const scaffoldMs = await repeat(o.scaffolds, (i) =>
      timedMs('repairmon new', [process.execPath, REPAIRMON_BIN, ...scaffoldArgs(`bench-app-${i}`)], inWork),
    );
    const inProject = { cwd: join(work, 'bench-app-0'), env };
    const install = [NPM, 'install', '--prefer-offline', '--no-audit', '--no-fund'] as const;
    const installMs = await timedMs('npm install in the generated project', install, { ...inProject, timeoutMs: 240_000 });
    const npmStartMs = await repeat(o.tests, () => timedMs('npm --version', [NPM, '--version'], { ...inProject, timeoutMs: 60_000 }));
    const testMs = await repeat(o.tests, () => timedMs('the generated npm test', [NPM, 'test'], { ...inProject, timeoutMs: 180_000 }));
    return {
      scaffoldMs,
      cliStartMs,
      installMs,
      testMs,
      npmStartMs,
      /** Median scaffold / median bare CLI start, median generated npm test / median `npm --version`. */
      scaffoldRatio: ratio(median(scaffoldMs), median(cliStartMs)),
      testRatio: ratio(median(testMs), median(npmStartMs)),
      loadAverage: await loadAverage(),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export function describeGenerator(f: GeneratorFigures): string {
  const row = (step: string, runs: readonly number[], baseline = '', baseRuns: readonly number[] = [], ratio = Number.NaN): string[] => [
    step,
    fixed(median(runs), 0),
    runs.map((v) => fixed(v, 0)).join(', '),
    baseline,
    baseline ? fixed(median(baseRuns), 0) : '',
    baseline ? fixed(ratio, 2) : '',
  ];
  const rows = [
    row('repairmon new (no install)', f.scaffoldMs, 'repairmon --help', f.cliStartMs, f.scaffoldRatio),
    row('npm install --prefer-offline', [f.installMs]),
    row('generated npm test', f.testMs, 'npm --version', f.npmStartMs, f.testRatio),
  ];
  const header = ['step', 'median ms', 'runs ms', 'baseline', 'baseline median ms', 'ratio'];
  return `generator (load ${fixed(f.loadAverage, 2)})\n${renderTable(header, rows, ['left', 'right', 'left', 'left', 'right', 'right'])}`;
}

if (isEntryPoint(import.meta.url)) {
  const scaffolds = numberFlag(process.argv, 'scaffolds', { min: 1, max: 20 });
  console.log(describeGenerator(await run({ scaffolds, tests: numberFlag(process.argv, 'tests', { min: 1, max: 10 }) })));
}
