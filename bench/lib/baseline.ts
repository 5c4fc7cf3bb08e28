/**
 * The guard: bench/baseline.json holds each guarded figure's ratio (ours over its same-run
 * baseline, so it travels between machines), one set per mode (quick and full measure with
 * different windows). `npm run bench -- --compare` sets today's ratios beside them; a figure more
 * than 20% worse fails the run. `--write-baseline` rewrites the mode's set, only in the commit
 * whose change moves a figure, with the reason in the CHANGELOG. Pure but for the file's path.
 */
import { resolve } from 'node:path';
import { fixed, renderTable } from './stats.js';
import type { Guard, SummaryRow } from './summary.js';

/** From dist/bench/lib/ back to the checkout's bench/. */
export const BASELINE_FILE = resolve(import.meta.dirname, '..', '..', '..', 'bench', 'baseline.json');

/** How much worse than its baseline a figure may read before the guard fails. */
export const WORSE_LIMIT = 0.2;

export type Mode = 'quick' | 'full';

export interface BaselineSet {
  readonly writtenAt: string;
  /** The commit the figures were measured at, and why they were (re)written. */
  readonly reason: string;
  readonly figures: Readonly<Record<string, BaselineFigure>>;
}

export interface BaselineFigure {
  readonly ratio: number;
  readonly better: Guard['better'];
  /** The run-all bench that measures it, so `--only` leaves out the others. */
  readonly bench: string;
}

/** One run's rows, by the run-all bench that gave them. */
export type RowsByBench = Readonly<Record<string, readonly SummaryRow[]>>;

export type BaselineFile = Partial<Record<Mode, BaselineSet>>;

export interface Comparison {
  readonly id: string;
  readonly baseline: number | undefined;
  readonly today: number | undefined;
  /** How much worse today reads, as a fraction (negative: better); NaN when either is missing. */
  readonly worse: number;
  readonly verdict: 'ok' | 'WORSE' | 'MISSING' | 'new';
}

/** Worse as a fraction of the baseline: up for a lower-is-better ratio, down for the other kind. */
export function worseBy(baseline: number, today: number, better: Guard['better']): number {
  if (!Number.isFinite(baseline) || !Number.isFinite(today) || baseline === 0) return Number.NaN;
  return better === 'lower' ? today / baseline - 1 : 1 - today / baseline;
}

/**
 * Every figure of the baseline against today's rows. A figure of a bench that did not run
 * (`--only`) is left out; one of a bench that ran but gave no number (failed, timed out, NaN)
 * is MISSING and fails like a worse one.
 */
export function compareWithBaseline(set: BaselineSet, ran: RowsByBench): Comparison[] {
  const today = new Map(Object.values(ran).flatMap((rows) => rows.flatMap((r) => (r.guard ? [[r.guard.id, r.guard] as const] : []))));
  const out: Comparison[] = [];
  for (const [id, base] of Object.entries(set.figures)) {
    if (!(base.bench in ran)) continue;
    const now = today.get(id)?.value;
    const worse = now === undefined ? Number.NaN : worseBy(base.ratio, now, base.better);
    const verdict = !Number.isFinite(worse) ? 'MISSING' : worse > WORSE_LIMIT ? 'WORSE' : 'ok';
    out.push({ id, baseline: base.ratio, today: now, worse, verdict });
  }
  for (const [id, guard] of today)
    if (!(id in set.figures)) out.push({ id, baseline: undefined, today: guard.value, worse: Number.NaN, verdict: 'new' });
  return out;
}

export function comparisonFails(comparisons: readonly Comparison[]): boolean {
  return comparisons.some((c) => c.verdict === 'WORSE' || c.verdict === 'MISSING');
}

export function renderComparison(comparisons: readonly Comparison[]): string {
  const percent = (w: number): string =>
    Number.isFinite(w) ? `${w > 0 ? '+' : ''}${fixed(w * 100, 0)} % ${w > 0 ? 'worse' : 'better'}` : '';
  return renderTable(
    ['figure', 'baseline ratio', 'today', 'change', 'verdict'],
    comparisons.map((c) => [c.id, fixed(c.baseline, 3), fixed(c.today, 3), percent(c.worse), c.verdict]),
    ['left', 'right', 'right', 'right', 'left'],
  );
}

/**
 * Today's guarded figures as the mode's new set. The figures of benches that did not run
 * (`--only`) are kept, so one bench's baseline can move alone; the other mode's set is kept.
 */
export function nextBaseline(current: BaselineFile, mode: Mode, ran: RowsByBench, writtenAt: string, reason: string): BaselineFile {
  const kept = Object.entries(current[mode]?.figures ?? {}).filter(([, f]) => !(f.bench in ran));
  const figures: Record<string, BaselineFigure> = Object.fromEntries(kept);
  for (const [bench, rows] of Object.entries(ran))
    for (const { guard } of rows)
      if (guard && Number.isFinite(guard.value)) figures[guard.id] = { ratio: Number(guard.value.toFixed(4)), better: guard.better, bench };
  return { ...current, [mode]: { writtenAt, reason, figures } };
}
