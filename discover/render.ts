/**
 * The report's three views: a table for a person, one JSON document for a script, and the
 * monitor-config fragment (`emit-config.ts`). Renderers read only the report.
 */
import { printable, renderTableLines } from '../diagnose/render-table.js';
import { refusalText } from './answer.js';
import { FINDING_NAMES, type DiscoveryReport, type Finding, type Refusal } from './types.js';

const HEADINGS = ['CHOICE', 'READING', 'EVIDENCE'] as const;

function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'status' in value && 'code' in value;
}

/** A learned reading as a table cell: `HTTP 403 insufficient_scope`, `tenants, keys`, `kebab`. */
export function readingText(reading: unknown): string {
  if (isRefusal(reading)) return refusalText(reading);
  if (Array.isArray(reading)) return reading.length === 0 ? '(none)' : reading.join(', ');
  return String(reading);
}

function cells(name: string, finding: Finding<unknown>): string[] {
  return finding.kind === 'learned' ? [name, printable(readingText(finding.reading)), printable(finding.evidence)] : [name, 'unknown', printable(finding.why)];
}

function headerLine(report: DiscoveryReport): string {
  const key = report.keyHint === null ? 'no key' : `key ${report.keyHint} (${report.auth})`;
  const tenant = report.tenant === null ? 'no tenant' : `tenant ${report.tenant}`;
  return `repairmon discover ${report.baseUrl}  ${key}  ${tenant}  ${report.requests.made} of at most ${report.requests.max} GET requests`;
}

export function renderDiscoveryTable(report: DiscoveryReport): string {
  const lines = [headerLine(report), ''];
  if (report.host.kind === 'not_api_v1') {
    lines.push(`NOT API v1: ${printable(report.host.why)}`, '');
    return lines.join('\n');
  }
  lines.push(...renderTableLines([[...HEADINGS], ...FINDING_NAMES.map((name) => cells(name, report.findings[name]))]), '');
  if (report.needKey.length > 0) lines.push(`Needs a key to learn: ${report.needKey.join(', ')} (pass --key-env VAR, --key-file PATH or --key-stdin)`);
  if (report.needTenant.length > 0) lines.push(`Needs --tenant SLUG to learn: ${report.needTenant.join(', ')}`);
  if (report.needKey.length + report.needTenant.length > 0) lines.push('');
  return lines.join('\n');
}

export function renderDiscoveryJson(report: DiscoveryReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
