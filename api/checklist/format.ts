/**
 * The checklist as a plain-text table: one row per check, status, and the answer behind it. It
 * goes to a terminal and quotes the server (a tenant slug, codes, messages): nothing in it may
 * drive the terminal.
 */
import { printable } from '../contract/index.js';
import type { ChecklistRow } from './evaluate.js';

export function formatChecklistTable(rows: readonly ChecklistRow[]): string {
  const width = Math.max(5, ...rows.map((r) => r.label.length));
  const lines = rows.map((r) => printable(`${r.label.padEnd(width)}  ${r.status.toUpperCase().padEnd(6)}  ${r.detail}`));
  return [`${'CHECK'.padEnd(width)}  RESULT  DETAIL`, ...lines].join('\n');
}
