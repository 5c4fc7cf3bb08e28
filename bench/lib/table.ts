/** Plain-text tables for bench output: columns padded to their widest cell. */

export type Align = 'left' | 'right';

export function renderTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, align: readonly Align[] = []): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    widths
      .map((w, i) => {
        const cell = cells[i] ?? '';
        return align[i] === 'right' ? cell.padStart(w) : cell.padEnd(w);
      })
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A number with fixed decimals, or "n/a" when it is not finite. */
export function fixed(value: number | undefined, digits: number): string {
  return value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}
