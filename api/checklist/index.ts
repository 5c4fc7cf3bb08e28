/** The spec's debugging checklist (§7) on the inspection engine. */
export * from './cause.js';
export * from './engine.js';
export * from './evaluate.js';
export * from './run.js';
