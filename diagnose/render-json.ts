/**
 * The ticket and script view: the whole report as one JSON document. A field that is known
 * but empty (no tenant in the URL) is written as null so scripts see a stable shape.
 */
import type { DiagnosisReport } from './types.js';

function replacer(_key: string, value: unknown): unknown {
  if (value === undefined) return null;
  return value instanceof Error ? value.message : value;
}

export function renderDiagnosisJson(report: DiagnosisReport): string {
  return `${JSON.stringify(report, replacer, 2)}\n`;
}
