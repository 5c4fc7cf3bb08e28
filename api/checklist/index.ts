/**
 * The spec's debugging checklist (§7): the calls, the pure evaluation, the table and the curl
 * line. `npm run check` evaluates with it, and so does the toolkit's `repairmon probe`.
 */
export { type ChecklistCause, causeOf } from './cause.js';
export {
  type ChecklistObservations,
  type ChecklistRow,
  type ChecklistRowId,
  checklistPassed,
  evaluateChecklist,
  formatChecklistTable,
} from './evaluate.js';
export { type ChecklistCallInput, type CurlSpec, curlCommand, hostUnreachable, runChecklist, shellQuote } from './run.js';
