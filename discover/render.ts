/**
 * The report's three views: a table for a person, one JSON document for a script, and
 * `--emit monitor-config`: the readings the monitor has settings for, as the YAML fields of one
 * target (`indexAccess`, `platformPaths`, the names in monitor/config/schema.ts), each under a
 * comment giving its evidence. Renderers read only the report.
 */
import { Document, Pair, Scalar, YAMLMap } from 'yaml';
import { printable } from '../api/contract/index.js';
import { INDEX_ACCESS, type IndexAccessReading, PLATFORM_PATHS } from '../api/contract/readings.js';
import { renderTable } from '../lib/index.js';
import { refusalText } from './answer.js';
import { type DiscoveryReport, FINDING_NAMES } from './report.js';
import type { Reading, Refusal } from './types.js';

const HEADINGS = ['CHOICE', 'READING', 'EVIDENCE'] as const;

function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'status' in value && 'code' in value;
}

/** A learned reading as a table cell: `HTTP 403 insufficient_scope`, `tenants, keys`, `kebab`. */
function readingText(reading: unknown): string {
  if (isRefusal(reading)) return refusalText(reading);
  if (Array.isArray(reading)) return reading.length === 0 ? '(none)' : reading.join(', ');
  return String(reading);
}

function cells(name: string, finding: Reading<unknown>): string[] {
  return finding.kind === 'learned'
    ? [name, printable(readingText(finding.reading)), printable(finding.evidence)]
    : [name, 'unknown', printable(finding.why)];
}

function headerLine(report: DiscoveryReport): string {
  const key = report.keyHint === null ? 'no key' : `key ${report.keyHint} (${report.auth})`;
  const tenant = report.tenant === null ? 'no tenant' : `tenant ${report.tenant}`;
  return `repairmon discover ${report.baseUrl}  ${key}  ${tenant}  ${report.requests.made} of at most ${report.requests.max} GET requests`;
}

export function renderDiscoveryTable(report: DiscoveryReport): string {
  const lines = [headerLine(report), ''];
  const stop = report.requests.stopped;
  if (stop !== null) lines.push(`Stopped early (${stop.kind}${'check' in stop ? ` on ${stop.check}` : ''}): later calls were not sent`, '');
  if (report.host.kind === 'not_api_v1') {
    lines.push(`NOT API v1: ${printable(report.host.why)}`, '');
    return lines.join('\n');
  }
  lines.push(...renderTable([[...HEADINGS], ...FINDING_NAMES.map((name) => cells(name, report.findings[name]))]), '');
  if (report.needKey.length > 0)
    lines.push(`Needs a key to learn: ${report.needKey.join(', ')} (pass --key-env VAR, --key-file PATH or --key-stdin)`);
  if (report.needTenant.length > 0) lines.push(`Needs --tenant SLUG to learn: ${report.needTenant.join(', ')}`);
  if (report.needKey.length + report.needTenant.length > 0) lines.push('');
  return lines.join('\n');
}

export function renderDiscoveryJson(report: DiscoveryReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

interface Setting {
  readonly value: unknown;
  readonly comment: string;
}

/** An unknown reading gets the setting's default, which holds under every reading. */
function setting<T>(finding: Reading<T>, fallback: T, value: (reading: T) => unknown): Setting {
  if (finding.kind === 'learned') return { value: value(finding.reading), comment: finding.evidence };
  return { value: value(fallback), comment: `unknown, so the default: ${finding.why}` };
}

export function renderMonitorConfig(report: DiscoveryReport): string {
  const settings: Record<string, Setting> = {
    indexAccess: setting<IndexAccessReading>(report.findings.indexAccess, INDEX_ACCESS.default, (r) => r),
    platformPaths: setting(report.findings.platformPaths, PLATFORM_PATHS.default, (r) => [...r]),
  };
  const doc = new Document();
  const map = new YAMLMap();
  for (const [name, { value, comment }] of Object.entries(settings)) {
    const key = new Scalar(name);
    key.commentBefore = ` ${printable(comment)}`;
    map.items.push(new Pair(key, doc.createNode(value, { flow: true })));
  }
  doc.contents = map;
  doc.commentBefore = [
    ` Discovered by repairmon discover from ${report.baseUrl} (${report.requests.made} GET requests).`,
    ' Paste under a target in monitor.yaml.',
  ].join('\n');
  return doc.toString({ lineWidth: 0 });
}
