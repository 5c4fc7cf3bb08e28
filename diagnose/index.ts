/**
 * `repairmon probe`'s diagnosis, and the observation types `discover/` shares. The CLI and
 * `discover/` import this file only.
 */
export { chooseKeySource, createProgress, keyFlagsHint, readKey } from './key-source.js';
export { type Call, type CallRecord, DOCS_CALL, MAX_PLATFORM_CALLS, type Observations } from './observations.js';
export { errorOf, isResponse, okData, tenantsListed, unlistedNotFound } from './observations.js';
export { DEFAULT_MAX_WAIT_S, REQUEST_BUDGET, type Paced, type PacedRun, type StopReason, pacedCall, pacedRun } from './pacing.js';
export { type Send, type SendOptions, type Wait, attemptSender, drive } from './send.js';
export { DEFAULT_WIDTH, renderDiagnosisJson, renderDiagnosisTable } from './render.js';
export { runDiagnosis } from './run.js';
export { parseTarget } from './target.js';
export type { DiagnosisReport } from './verdict.js';
