/** The spec's debugging checklist (§7), for `npm run check` and `repairmon probe`. */
export * from './cause.js';
export * from './evaluate.js';
export * from './run.js';
