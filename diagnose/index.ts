/** `repairmon probe`'s diagnosis, and what `discover/` shares of it. The CLI and `discover/` import this file only. */
export { chooseKeySource, createProgress, keyFlagsHint, readKey } from './key-source.js';
export { MAX_PLATFORM_CALLS, errorOf, isResponse, okData, tenantsListed, unlistedNotFound } from './observations.js';
export { REQUEST_BUDGET } from '../api/checklist/index.js';
export { DEFAULT_MAX_WAIT_S, type Send, type SendOptions, type Wait, attemptSender } from './send.js';
export { DEFAULT_WIDTH, renderDiagnosisJson, renderDiagnosisTable } from './render.js';
export { runDiagnosis } from './run.js';
export { parseTarget } from './target.js';
export type { DiagnosisReport } from './verdict.js';
