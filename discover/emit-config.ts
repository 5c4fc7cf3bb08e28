/**
 * `--emit monitor-config`: the readings the monitor has settings for, as the YAML fields of one
 * target (`indexAccess`, `platformPaths`, the names in monitor/config/schema.ts), each under a
 * comment giving its evidence, ready to paste under a target in monitor.yaml.
 */
import { Document, Pair, Scalar, YAMLMap } from 'yaml';
import { INDEX_ACCESS, type IndexAccessReading, PLATFORM_PATHS } from '../api/contract/index.js';
import { printable } from '../diagnose/render-table.js';
import type { DiscoveryReport, Finding } from './types.js';

interface Setting {
  readonly value: unknown;
  readonly comment: string;
}

/** An unknown reading gets the setting's default, which holds under every reading. */
function setting<T>(finding: Finding<T>, fallback: T, value: (reading: T) => unknown): Setting {
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
