/** The ticket and script view: the whole report as one JSON document. */
import type { ProbeReport } from './types.js';

export function renderJson(report: ProbeReport): string {
  return `${JSON.stringify(report, (_key, value: unknown) => (value instanceof Error ? value.message : value), 2)}\n`;
}
