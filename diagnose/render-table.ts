/**
 * The human view: a header line, one table row per check, the curl lines, the verdict, what the
 * run spent. It goes to a terminal and quotes the server everywhere (codes, messages, request
 * ids, a redirect's Location): every line is made printable, cells before they are padded.
 */
import { printable } from '../api/contract/index.js';
import { KEY_ENV_VAR } from './curl.js';
import { type DiagnosisRow, type DiagnosisReport, STEPS } from './types.js';

/** Also what `discover/` prints with: the one shared function of `api/contract/untrusted-text.ts`. */
export { printable };

const HEADINGS = ['STATUS', 'STEP', 'CHECK', 'HTTP', 'CODE', 'LATENCY', 'REQUEST ID', 'SERVER MESSAGE (PL)', 'EXPLANATION'] as const;

function cells(row: DiagnosisRow): string[] {
  return [
    row.status.toUpperCase(),
    `${STEPS.indexOf(row.step) + 1} ${row.step}`,
    row.check,
    row.httpStatus === undefined ? '-' : String(row.httpStatus),
    row.errorCode === undefined ? '-' : printable(row.errorCode),
    row.latencyMs === undefined ? '-' : `${row.latencyMs} ms`,
    row.requestId === undefined ? '-' : printable(row.requestId),
    row.serverMessage === undefined ? '-' : printable(row.serverMessage),
    printable(row.explanation),
  ];
}

export function renderTableLines(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col] ?? 0))).join('  ').trimEnd());
}

/** Several checks can read the same call; each distinct call is listed once. */
export function curlLines(rows: readonly DiagnosisRow[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const row of rows) if (row.curl !== undefined) out.set(row.curl, [...(out.get(row.curl) ?? []), row.check]);
  return out;
}

function headerLine(report: DiagnosisReport): string {
  const kind = report.key.kind === 'unknown' ? 'kind unknown' : `${report.key.kind} key`;
  const tenant = report.tenant.probed === undefined ? 'no tenant' : `tenant ${report.tenant.probed}`;
  return `repairmon probe ${report.baseUrl}  key ${report.key.hint} (${report.key.environment}, ${kind})  auth ${report.auth}  ${tenant}`;
}

export function renderDiagnosisTable(report: DiagnosisReport): string {
  const lines = [headerLine(report), '', ...renderTableLines([[...HEADINGS], ...report.checks.map(cells)])];
  const curls = curlLines(report.checks);
  if (curls.size > 0) {
    lines.push('', `Reproduce each failing call with curl (set ${KEY_ENV_VAR} to the key first, e.g. read -rs ${KEY_ENV_VAR}; export ${KEY_ENV_VAR}):`);
    for (const [curl, checks] of curls) lines.push(`  # ${checks.join(', ')}`, `  ${curl}`);
  }
  lines.push('', report.verdict.summary, `Next: ${report.verdict.next}`, trafficLine(report), '');
  return lines.map(printable).join('\n');
}

function trafficLine(report: DiagnosisReport): string {
  const t = report.traffic;
  const waited = t.waits.length === 0 ? 'no wait' : `waited ${Math.ceil(t.waitedMs / 1000)} s as the server asked (at most ${Math.ceil(t.maxWaitMs / 1000)} s)`;
  const notRun = t.notRun.length === 0 ? '' : `; not run: ${t.notRun.join(', ')}`;
  return `Requests: ${t.requestsSent} sent (at most ${t.requestBudget} per run), ${waited}${notRun}`;
}
