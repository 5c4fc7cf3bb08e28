/** The one summary table of `npm run bench`: each bench's figures as rows. Pure, so the verdicts are tested without running anything. */
import type { OverheadFigures } from '../client-overhead.js';
import type { AlertStackResult } from './alert-measure.js';
import type { GeneratorFigures } from '../generator.js';
import { HOSTILE_OPS, type HostileScaleFigures } from '../hostile-scale.js';
import { TARGET_RATIO, type VersusFigures } from '../monitor-vs-blackbox.js';
import type { ThroughputFigures } from '../sandbox-throughput.js';
import type { ScaleRunFigures } from '../scale.js';
import { TARGET_KEYS, donePercent, scaleVerdicts } from '../monitor-scale-matrix.js';
import { describeSpread, fixed, median, ratio, renderTable, spreadOf } from './stats.js';

export type TargetVerdict = 'MET' | 'MISSED' | 'info' | 'FAILED' | 'TIMED OUT';

export interface SummaryRow {
  readonly bench: string;
  readonly figure: string;
  readonly ours: string;
  readonly baseline: string;
  readonly ratio: string;
  readonly target: string;
  readonly verdict: TargetVerdict;
  /** A ratio `--compare` holds against bench/baseline.json (lib/baseline.ts): machine-independent. */
  readonly guard?: Guard;
}

export interface Guard {
  /** Stable across runs: the bench and the figure, not its wording. */
  readonly id: string;
  readonly value: number;
  readonly better: 'lower' | 'higher';
}

/** How one bench ended; the figures travel only with success. */
export type BenchOutcome<F> =
  | { readonly kind: 'ok'; readonly seconds: number; readonly figures: F }
  | { readonly kind: 'failed'; readonly seconds: number; readonly message: string }
  | { readonly kind: 'timed_out'; readonly seconds: number; readonly limitSeconds: number };

const atMost = (value: number, limit: number): TargetVerdict => (Number.isFinite(value) && value <= limit ? 'MET' : 'MISSED');
const below = (value: number, limit: number): TargetVerdict => (Number.isFinite(value) && value < limit ? 'MET' : 'MISSED');

const info = (bench: string, figure: string, ours: string, baseline = '', ratio = ''): SummaryRow => ({
  bench,
  figure,
  ours,
  baseline,
  ratio,
  target: '',
  verdict: 'info',
});

export function clientRows(f: OverheadFigures): SummaryRow[] {
  const modes = [
    { name: `concurrency ${f.sequential.concurrency}`, m: f.sequential },
    { name: `concurrency ${f.concurrent.concurrency}`, m: f.concurrent },
    ...(f.inMemory ? [{ name: 'in memory, no sockets', m: f.inMemory }] : []),
  ];
  return modes.map(({ name, m }) => ({
    bench: 'client-overhead',
    figure: `cpu µs/call vs raw undici, ${name} (median round ${fixed(m.medianCpuRatio, 2)}, user ${fixed(m.userRatio, 2)})`,
    ours: fixed(m.client.cpuUsPerCall, 1),
    baseline: fixed(m.raw.cpuUsPerCall, 1),
    ratio: fixed(m.cpuRatio, 3),
    target: '<= 1.20',
    verdict: atMost(m.cpuRatio, 1.2),
    guard: { id: `client-overhead/${name}`, value: m.cpuRatio, better: 'lower' },
  }));
}

export function versusRows(f: VersusFigures): SummaryRow[] {
  return [
    {
      bench: 'monitor-vs-blackbox',
      figure: `cpu s per 1000 probes at ${f.rate}/s (vs blackbox_exporter; ${describeSpread(f.rounds, 3)})`,
      ours: fixed(f.ours.cpuSecondsPer1000, 3),
      baseline: fixed(f.blackbox.cpuSecondsPer1000, 3),
      ratio: fixed(f.ratio, 3),
      target: `<= ${TARGET_RATIO}`,
      verdict: atMost(f.ratio, TARGET_RATIO),
      guard: { id: `monitor-vs-blackbox/${f.rate}`, value: f.ratio, better: 'lower' },
    },
  ];
}

export function throughputRows(f: ThroughputFigures): SummaryRow[] {
  const rps = (side: typeof f.sandbox): string => fixed(side.requestsPerSecond, 0);
  return [
    {
      bench: 'sandbox-throughput',
      figure: `req/s on ${f.path} (vs hello-world; ${describeSpread(f.rounds, 2)})`,
      ours: rps(f.sandbox),
      baseline: rps(f.helloWorld),
      ratio: fixed(f.ratio, 2),
      target: '>= 0.4',
      verdict: Number.isFinite(f.ratio) && f.ratio >= 0.4 ? 'MET' : 'MISSED',
      guard: { id: 'sandbox-throughput', value: f.ratio, better: 'higher' },
    },
  ];
}

export function scaleRows(f: ScaleRunFigures): SummaryRow[] {
  const rows: SummaryRow[] = [];
  const interval = `${f.matrix.intervalSeconds} s interval`;
  for (const r of f.matrix.rows) {
    const bench = `scale ${r.keys} keys`;
    const v = scaleVerdicts(r);
    const rated = r.keys === TARGET_KEYS && f.matrix.intervalSeconds === 60;
    const row = (figure: string, ours: string, target: string, verdict: TargetVerdict): SummaryRow =>
      rated ? { bench, figure, ours, baseline: '', ratio: '', target, verdict } : info(bench, figure, ours);
    rows.push(
      row(`probes done in one ${interval}`, `${r.doneInInterval}/${r.scheduled} (${fixed(donePercent(r), 1)} %)`, '100 %', v.done),
      row('schedule delay p99 s', fixed(r.delayP99Seconds, 3), '< 1 s', v.delay),
      row('/metrics render ms (median)', fixed(median(r.renderMs), 0), '< 250 ms', v.render),
      info(
        bench,
        'series / MiB / peak RSS MiB',
        `${r.series} / ${fixed(r.metricsBytes / 2 ** 20, 1)} / ${fixed(r.peakRssBytes / 2 ** 20, 0)}`,
      ),
    );
  }
  const b = f.renderBaseline;
  const figure = `/metrics render ms p50, ${b.scaled.keys} keys (vs ${b.baseline.keys} demo keys)`;
  const render = (x: typeof b.scaled): string => fixed(x.renderMedianMs, 1);
  const guard: Guard = { id: 'scale/render', value: b.renderRatio, better: 'lower' };
  return [...rows, { ...info('monitor-scale', figure, render(b.scaled), render(b.baseline), fixed(b.renderRatio, 1)), guard }];
}

/**
 * Growths too unsteady for the 20 % guard: seven warmed-up quick runs (2026-11-28) read GET /'s
 * 2.2-3.6, GET /probe's 0.5-1.5 (2-4 ms at either size) and POST /-/reload's 3.6-6.1 (500 keys
 * 145-250 ms). Their goal, at most twice linear, still judges each run and refuses the
 * quadratic work (x25) they exist to catch. check-config's (1.6-1.9) stays guarded.
 */
const UNSTEADY_GROWTHS = new Set(['GET / (status page)', 'GET /probe (on-demand lookup + 1 probe)', 'POST /-/reload']);

/**
 * Per operation: ms at the largest size against the smallest, the ratio being how the work grew
 * (linear x5 for 1 000 -> 5 000 keys, n² x25); the target allows twice linear. The liveness
 * probe's longest wait during a status page is held to a kubelet's default timeout (1 s) instead.
 */
export function hostileScaleRows(f: HostileScaleFigures): SummaryRow[] {
  const base = f.sizes[0];
  const last = f.sizes.at(-1);
  if (!base || !last || base === last) return [];
  const keys = last.keys / base.keys;
  return HOSTILE_OPS.map(([name, get]): SummaryRow => {
    const growth = ratio(get(last), get(base));
    const healthy = name.startsWith('/-/healthy');
    return {
      bench: 'hostile-scale',
      figure: `${name}: ms at ${last.keys} keys (vs ${base.keys})`,
      ours: fixed(get(last), 0),
      baseline: fixed(get(base), 0),
      ratio: fixed(growth, 1),
      target: healthy ? '< 1000 ms' : `growth <= ${fixed(2 * keys, 0)}`,
      verdict: healthy ? below(get(last), 1000) : atMost(growth, 2 * keys),
      ...(UNSTEADY_GROWTHS.has(name) || healthy ? {} : { guard: { id: `hostile-scale/${name}`, value: growth, better: 'lower' as const } }),
    };
  });
}

/** Each step's median against its baseline's median; the goals: `new` <= 8x `--help` and <= 1 s, the generated `npm test` <= 10x `npm --version` and <= 2 s. */
export function generatorRows(f: GeneratorFigures): SummaryRow[] {
  const step = (
    id: string,
    figure: string,
    runs: readonly number[],
    base: readonly number[],
    limit: { x: number; ms: number },
  ): SummaryRow => {
    const r = ratio(median(runs), median(base));
    return {
      bench: 'generator',
      figure: `${figure} (${describeSpread(spreadOf(runs), 0)} ms)`,
      ours: fixed(median(runs), 0),
      baseline: fixed(median(base), 0),
      ratio: fixed(r, 1),
      target: `<= ${limit.x}x, <= ${limit.ms} ms`,
      verdict: atMost(r, limit.x) === 'MET' && atMost(median(runs), limit.ms) === 'MET' ? 'MET' : 'MISSED',
      guard: { id: `generator/${id}`, value: r, better: 'lower' },
    };
  };
  return [
    step('new', 'repairmon new ms, no install (vs repairmon --help)', f.scaffoldMs, f.cliStartMs, { x: 8, ms: 1000 }),
    step('npm-test', 'generated npm test ms (vs npm --version)', f.testMs, f.npmStartMs, { x: 10, ms: 2000 }),
    info('generator', 'npm install --prefer-offline ms', fixed(f.installMs, 0)),
  ];
}

/** Issue 29's goal: a whole-target outage pages within 75 s at the default timings. */
export const OUTAGE_PAGE_GOAL_SECONDS = 75;

/**
 * First the whole outage's first page at the default timings (the median of its samples) against
 * the 75 s goal; then per fault: seconds to fire and to resolve at the measured schedule, and
 * multiplied back to the default one (baseline column, an estimate). A fault's verdict is whether
 * the alert fired at the right receiver, held while the fault was on and resolved, with no false
 * notification.
 */
export function alertRows(f: AlertStackResult): SummaryRow[] {
  const outage = f.faults.find((m) => m.fault === 'whole-outage');
  if (!outage) return alertFaultRows(f);
  // Each sample lands where it lands against the 30 s schedule and the 15 s scrape and
  // evaluation (up to about 30 s apart); the median of injections at staggered phases does not.
  const samples = [outage.pageSeconds, ...(f.outageSamplePages ?? [])].map((s) => (s === undefined ? undefined : s * f.factor));
  const paged = samples.filter((s) => s !== undefined);
  const atDefault = paged.length === samples.length ? median(paged) : undefined;
  const goal: SummaryRow = {
    bench: 'alert-latency',
    figure: `whole outage -> first page at the default timings, s (${
      samples.length === 1
        ? 'one injection'
        : `median of ${samples.length} injections at staggered phases: ${samples.map((s) => (s === undefined ? 'none' : s.toFixed(0))).join(', ')}`
    }; x${f.factor} of the compressed run)`,
    ours: fixed(atDefault, 1),
    baseline: '',
    ratio: '',
    target: `<= ${OUTAGE_PAGE_GOAL_SECONDS}`,
    verdict: atDefault !== undefined && atDefault <= OUTAGE_PAGE_GOAL_SECONDS ? 'MET' : 'MISSED',
  };
  return [goal, ...alertFaultRows(f)];
}

function alertFaultRows(f: AlertStackResult): SummaryRow[] {
  return f.faults.map((m) => {
    const ok =
      m.fired !== undefined &&
      m.fired.receiver === m.expect.receiver &&
      !m.flapped &&
      m.resolveSeconds !== undefined &&
      (m.falseNotifications ?? []).length === 0;
    const atDefault = (s: number | undefined): string => (s === undefined ? 'n/a' : fixed((s * f.factor) / 60, 1));
    return {
      bench: 'alert-latency',
      figure: `${m.fault} -> ${m.expect.alertname} (${m.expect.severity}): s to fire / to resolve at a ${f.scheduleSeconds} s schedule; min at ${f.scheduleSeconds * f.factor} s (x${f.factor})`,
      ours: `${fixed(m.fireSeconds, 1)} / ${fixed(m.resolveSeconds, 1)}`,
      baseline: `${atDefault(m.fireSeconds)} / ${atDefault(m.resolveSeconds)}`,
      ratio: '',
      target: 'fires, holds, resolves, nothing false',
      verdict: ok ? 'MET' : 'MISSED',
    };
  });
}

/** The row a bench that did not finish leaves in the table. */
export function outcomeRows<F>(bench: string, outcome: BenchOutcome<F>, rows: (figures: F) => SummaryRow[]): SummaryRow[] {
  if (outcome.kind === 'ok') return rows(outcome.figures);
  const why = outcome.kind === 'failed' ? (outcome.message.split('\n')[0] ?? '') : `stopped waiting after ${outcome.limitSeconds} s`;
  const verdict = outcome.kind === 'failed' ? 'FAILED' : 'TIMED OUT';
  return [{ bench, figure: why, ours: '', baseline: '', ratio: '', target: '', verdict }];
}

export function renderSummary(rows: readonly SummaryRow[]): string {
  return renderTable(
    ['bench', 'figure', 'ours', 'baseline', 'ratio', 'target', 'verdict'],
    rows.map((r) => [r.bench, r.figure, r.ours, r.baseline, r.ratio, r.target, r.verdict]),
    ['left', 'left', 'right', 'right', 'right', 'left', 'left'],
  );
}
