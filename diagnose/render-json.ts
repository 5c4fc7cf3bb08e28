/**
 * The ticket and script view: the whole report as one JSON document. A field that is known
 * but empty (no tenant in the URL) is written as null so scripts see a stable shape. JSON
 * escapes C0 controls but not C1 ones or bidi overrides, and the document is often read in a
 * terminal: strings are made printable first.
 */
import { printable } from '../api/contract/index.js';
import type { DiagnosisReport } from './types.js';

function replacer(_key: string, value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'string') return printable(value);
  return value instanceof Error ? printable(value.message) : value;
}

export function renderDiagnosisJson(report: DiagnosisReport): string {
  return `${JSON.stringify(report, replacer, 2)}\n`;
}
