/** The spec's debugging checklist (§7), for `npm run check` and the toolkit's `repairmon probe`. */
export { type ChecklistCause, causeOf } from './cause.js';
export { type ChecklistObservations, type ChecklistRow, type ChecklistRowId } from './evaluate.js';
export { checklistPassed, evaluateChecklist, formatChecklistTable } from './evaluate.js';
export {
  type ChecklistCallInput,
  type CurlSpec,
  curlCommand,
  hostUnreachable,
  runChecklist,
  shellQuote,
} from './run.js';
