/**
 * The table (at most `width` columns, detail and long lines wrapped, curl lines continued with
 * `\`; `--wide`: every column unwrapped) and the JSON (the whole report, an empty field as null
 * so scripts see a stable shape). Server text is made printable before it is measured.
 */
import { printable } from '../api/contract/index.js';
import { renderTable, wrap } from '../lib/index.js';
import { callIds } from './explain.js';
import { KEY_ENV_VAR } from './report.js';
import { type DiagnosisRow, STEPS } from './types.js';
import type { DiagnosisReport } from './verdict.js';

/** Columns of a table that goes to a pipe or a file, where no terminal says how wide it is. */
export const DEFAULT_WIDTH = 100;

/** The most columns a line may take, or `wide`: every column, nothing wrapped (`--wide`). */
export type TableWidth = number | 'wide';

const WIDE_HEADINGS = 'STATUS|STEP|CHECK|HTTP|CODE|LATENCY|REQUEST ID|TRACE ID|SERVER MESSAGE (PL)|EXPLANATION'.split('|');
const HEADINGS = ['STATUS', 'CHECK', 'HTTP', 'DETAIL'];
const CONTINUED = '  ';

function wideCells(row: DiagnosisRow): string[] {
  const cell = (value: string | number | undefined, suffix = ''): string => (value === undefined ? '-' : printable(`${value}${suffix}`));
  return [
    row.status.toUpperCase(),
    `${STEPS.indexOf(row.step) + 1} ${row.step}`,
    row.check,
    cell(row.httpStatus),
    cell(row.errorCode),
    cell(row.latencyMs, ' ms'),
    cell(row.requestId),
    cell(row.traceId),
    cell(row.serverMessage),
    printable(row.explanation),
  ];
}

/** What was observed and what it means; the server's own words, request id and trace id where a check failed. */
function cells(row: DiagnosisRow): string[] {
  const code = row.errorCode === undefined || row.explanation.includes(row.errorCode) ? '' : `${row.errorCode}: `;
  const said = (
    row.status === 'fail' ? [row.serverMessage === undefined ? '' : `server: "${row.serverMessage}"`, callIds(row)] : []
  ).filter((s) => s !== '');
  const server = said.length === 0 ? '' : ` (${said.join('; ')})`;
  return [
    row.status.toUpperCase(),
    row.check,
    row.httpStatus === undefined ? '-' : String(row.httpStatus),
    printable(`${code}${row.explanation}${server}`),
  ];
}

/** Several checks can read the same call; each distinct call is listed once. */
function curlLines(rows: readonly DiagnosisRow[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const row of rows) if (row.curl !== undefined) out.set(row.curl, [...(out.get(row.curl) ?? []), row.check]);
  return out;
}

/** Flags of a curl line that take the next word as their value. */
const CURL_VALUED = new Set(['--max-time', '-X', '-H']);

/** A curl line as lines that fit, broken between its arguments, each but the last ending in ` \\`. */
function continued(curl: string, width: number): string[] {
  const words = curl.match(/'[^']*'(?:\\''[^']*')*|"[^"]*"|\S+/g) ?? [];
  const units: string[] = [];
  for (let i = 0; i < words.length; i += 1)
    units.push(CURL_VALUED.has(words[i]!) && i + 1 < words.length ? `${words[i]} ${words[++i]}` : words[i]!);
  const lines: string[] = [];
  let line = '';
  for (const unit of units) {
    const indent = lines.length === 0 ? CONTINUED : `${CONTINUED}  `;
    if (line !== '' && indent.length + line.length + 1 + unit.length + 2 > width) {
      lines.push(`${indent}${line} \\`);
      line = unit;
    } else line = line === '' ? unit : `${line} ${unit}`;
  }
  return [...lines, `${lines.length === 0 ? CONTINUED : `${CONTINUED}  `}${line}`];
}

function headerLine(report: DiagnosisReport): string {
  const kind = report.key.kind === 'unknown' ? 'kind unknown' : `${report.key.kind} key`;
  const tenant = report.tenant.probed === undefined ? 'no tenant' : `tenant ${report.tenant.probed}`;
  return `repairmon probe ${report.baseUrl}  key ${report.key.hint} (${report.key.environment}, ${kind})  auth ${report.auth}  ${tenant}`;
}

function trafficLine(report: DiagnosisReport): string {
  const t = report.traffic;
  const waited =
    t.waits.length === 0
      ? 'no wait'
      : `waited ${Math.ceil(t.waitedMs / 1000)} s as the server asked (at most ${Math.ceil(t.maxWaitMs / 1000)} s)`;
  const notRun = t.notRun.length === 0 ? '' : `; not run: ${t.notRun.join(', ')}`;
  return `Requests: ${t.requestsSent} sent (at most ${t.requestBudget} per run), ${waited}${notRun}`;
}

export function renderDiagnosisTable(report: DiagnosisReport, view: TableWidth = DEFAULT_WIDTH): string {
  const width = view === 'wide' ? undefined : view;
  // A request id or trace id in the verdict stays whole, as in the table.
  const fit = (text: string, indent = ''): string[] =>
    (width === undefined ? [printable(text)] : wrap(printable(text), width - indent.length, CONTINUED, { keepWords: true })).map(
      (line) => `${indent}${line}`,
    );
  const table = width === undefined ? [WIDE_HEADINGS, ...report.checks.map(wideCells)] : [HEADINGS, ...report.checks.map(cells)];
  // The header breaks between its fields (two spaces apart), never between a label and its value.
  const header =
    width === undefined ? [printable(headerLine(report))] : wrap(printable(headerLine(report)), width, CONTINUED, { separator: '  ' });
  // Request and trace ids stay whole on a narrow terminal: they are what the API team searches by.
  const lines = [...header, '', ...renderTable(table, { width, keepWords: true })];
  const curls = curlLines(report.checks);
  if (curls.size > 0) {
    lines.push(
      '',
      ...fit(
        `Reproduce each failing call with curl (set ${KEY_ENV_VAR} to the key first, e.g. read -rs ${KEY_ENV_VAR}; export ${KEY_ENV_VAR}):`,
      ),
    );
    for (const [curl, checks] of curls)
      lines.push(
        ...fit(`# ${checks.join(', ')}`, '  '),
        ...(width === undefined ? [`  ${printable(curl)}`] : continued(printable(curl), width)),
      );
  }
  lines.push('', ...fit(report.verdict.summary), ...fit(`Next: ${report.verdict.next}`), ...fit(trafficLine(report)), '');
  return lines.join('\n');
}

function replacer(_key: string, value: unknown): unknown {
  if (value === undefined) return null;
  // JSON escapes C0 controls but not C1 ones or bidi overrides, and the document is often read in a terminal.
  if (typeof value === 'string') return printable(value);
  return value instanceof Error ? printable(value.message) : value;
}

export function renderDiagnosisJson(report: DiagnosisReport): string {
  return `${JSON.stringify(report, replacer, 2)}\n`;
}
