/** The spec's debugging checklist (§7) on the inspection engine, for `npm run check` and `repairmon probe`. */
export { type ChecklistCause, causeOf } from './cause.js';
export * from './engine.js';
export { type ChecklistRow, type ChecklistRowId } from './evaluate.js';
export { checklistPassed, evaluateChecklist, formatChecklistTable } from './evaluate.js';
export { type ChecklistCallInput, type CurlSpec, DOCS_CALL, curlCommand } from './run.js';
export { resourceCall, runChecklist, shellQuote } from './run.js';
