/** Small pure statistics for bench figures, and their text: the repo's one table renderer (`lib/table.ts`) with a rule under the header. */
import { type Align, renderTable as table } from '../../lib/index.js';

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((Math.min(Math.max(p, 0), 100) / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** The median of per-round figures with how many rounds and how far they spread (min..max). */
export interface Spread {
  readonly median: number;
  readonly rounds: number;
  readonly min: number;
  readonly max: number;
}

export function spreadOf(values: readonly number[]): Spread {
  const finite = values.filter((v) => Number.isFinite(v));
  return {
    median: median(finite),
    rounds: finite.length,
    min: finite.length === 0 ? Number.NaN : Math.min(...finite),
    max: finite.length === 0 ? Number.NaN : Math.max(...finite),
  };
}

/** "median of 5 rounds, 0.41-0.45": what the summary says next to a figure taken in rounds. */
export function describeSpread(s: Spread, digits: number): string {
  return `median of ${s.rounds} rounds, ${fixed(s.min, digits)}-${fixed(s.max, digits)}`;
}

/** a / b, NaN when b is zero or either side is not finite, so a missing baseline never reads as a win. */
export function ratio(a: number, b: number): number {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : Number.NaN;
}

export function renderTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, align: readonly Align[] = []): string {
  return table([header, ...rows], { align, rule: true }).join('\n');
}

/** A number with fixed decimals, or "n/a" when it is not finite. */
export function fixed(value: number | undefined, digits: number): string {
  return value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

/** A table given column by column: its header, how a row shows under it, and its alignment (right, for figures, unless said). */
export function columnTable<T>(rows: readonly T[], columns: ReadonlyArray<readonly [string, (row: T) => string, Align?]>): string {
  const cells = rows.map((row) => columns.map(([, cell]) => cell(row)));
  return renderTable(
    columns.map(([header]) => header),
    cells,
    columns.map(([, , align]) => align ?? 'right'),
  );
}
