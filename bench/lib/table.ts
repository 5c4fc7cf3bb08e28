/** Plain-text tables for bench output: the repo's one table renderer (`lib/table.ts`), with a rule under the header. */
import { type Align, renderTable as table } from '../../lib/index.js';

export function renderTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, align: readonly Align[] = []): string {
  return table([header, ...rows], { align, rule: true }).join('\n');
}

/** A number with fixed decimals, or "n/a" when it is not finite. */
export function fixed(value: number | undefined, digits: number): string {
  return value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}
