/**
 * Plain-text tables and wrapped lines for a terminal or a ticket: columns padded to their widest
 * cell, the last one wrapped to a width. Cells are measured as they are: make server text printable first.
 */
export type Align = 'left' | 'right';

interface TableOptions {
  readonly align?: readonly Align[];
  /** The most columns a line may take (the last column wraps); no limit when undefined. */
  readonly width?: number | undefined;
  /** A line of dashes under the header. */
  readonly rule?: boolean;
  /**
   * A word longer than the last column gets a line of its own, past the width, instead of being
   * cut: an id someone copies (a request id on a narrow terminal) must stay one piece.
   */
  readonly keepWords?: boolean;
}

/** `separator`: where lines may break (two spaces keep a label with its value); `keepWords`: see TableOptions. */
interface WrapOptions {
  readonly separator?: string;
  readonly keepWords?: boolean | undefined;
}

/** A cell never narrower than this, however long the columns before it. */
const MIN_LAST_COLUMN = 20;

/**
 * `text` in lines of at most `width` columns broken at `separator` (a space; two keep a label with
 * its value), later lines starting with `indent`; a longer word is cut unless `keepWords`.
 */
export function wrap(text: string, width: number, indent = '', { separator = ' ', keepWords = false }: WrapOptions = {}): string[] {
  const lines: string[] = [];
  let line = '';
  const room = (): number => width - (lines.length === 0 ? 0 : indent.length);
  const push = (): void => {
    lines.push(lines.length === 0 ? line : `${indent}${line}`);
    line = '';
  };
  for (let word of text.split(separator)) {
    if (line !== '' && line.length + separator.length + word.length > room()) push();
    while (word.length > room() && !keepWords) {
      if (line !== '') push();
      line = word.slice(0, room());
      word = word.slice(line.length);
      push();
    }
    line = line === '' ? word : `${line}${separator}${word}`;
  }
  if (line !== '' || lines.length === 0) push();
  return lines;
}

export function renderTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string[] {
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const align = (col: number): Align => options.align?.[col] ?? 'left';
  const widths = Array.from({ length: columns }, (_, col) => Math.max(0, ...rows.map((r) => (r[col] ?? '').length)));
  const pad = (cell: string, col: number): string => (align(col) === 'right' ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!));
  const lead = widths.slice(0, -1).reduce((sum, w) => sum + w + 2, 0);
  const lastWidth = options.width === undefined ? undefined : Math.max(MIN_LAST_COLUMN, options.width - lead);
  const line = (cells: readonly string[]): string[] => {
    const head = cells.slice(0, -1).map(pad);
    const last = cells.at(-1) ?? '';
    if (align(columns - 1) === 'right' || lastWidth === undefined) return [[...head, pad(last, columns - 1)].join('  ').trimEnd()];
    return wrap(last, lastWidth, '', { keepWords: options.keepWords }).map((part, i) =>
      (i === 0 ? [...head, part].join('  ') : `${' '.repeat(lead)}${part}`).trimEnd(),
    );
  };
  const out = rows.flatMap(line);
  if (options.rule && rows.length > 0) out.splice(line(rows[0]!).length, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return out;
}

/**
 * A `--help` listing: each flag, then its text wrapped under one column within `width`; a flag
 * too long for the column gets a line of its own, a text's further lines (a list) go two deeper.
 */
export function helpRows(rows: ReadonlyArray<readonly [string, string]>, column: number, width = 100): string[] {
  const indent = ' '.repeat(column + 3);
  return rows.flatMap(([flag, text]) => {
    const body = text.split('\n').flatMap((line, i) => {
      const nested = i === 0 ? '' : '  ';
      return wrap(line.trim(), width - indent.length - nested.length).map((l) => `${indent}${nested}${l}`);
    });
    if (flag.length > column) return [`  ${flag}`, ...body];
    return [`  ${flag.padEnd(column)} ${body[0]?.trimStart() ?? ''}`, ...body.slice(1)];
  });
}
