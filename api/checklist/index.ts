/**
 * The spec's debugging checklist (§7): the calls, the pure evaluation, the table and the curl
 * line. `npm run check` evaluates with it, and so does the toolkit's `repairmon probe`.
 */
export { describeAnswer } from './answer.js';
export { type ChecklistCause, type ChecklistCauseKind, causeOf, provesApiPath, provesKeyAccepted } from './cause.js';
export { type CurlSpec, curlCommand, shellQuote } from './curl.js';
export {
  type ChecklistEvidence,
  type ChecklistInput,
  type ChecklistObservations,
  type ChecklistRow,
  type ChecklistRowId,
  type ChecklistStatus,
  checklistPassed,
  evaluateChecklist,
} from './evaluate.js';
export { formatChecklistTable } from './format.js';
export { type ChecklistCallInput, collectObservations, hostUnreachable, runChecklist } from './run.js';
