/** The inspection engine and `repairmon probe`'s diagnosis on it. The CLI and `discover/` import this file only. */
export { chooseKeySource, createProgress, keyFlagsHint, readKey } from './key-source.js';
export { MAX_PLATFORM_CALLS, errorOf, isResponse, okData, tenantsListed, unlistedNotFound } from './observations.js';
export { type Call, type CallRecord, type Observations, type Paced, type PacedRun, REQUEST_BUDGET, type StopReason } from './engine.js';
export { drive, pacedCall, pacedRun } from './engine.js';
export { DEFAULT_MAX_WAIT_S, type Send, type SendOptions, type Wait, attemptSender } from './send.js';
export { DEFAULT_WIDTH, renderDiagnosisJson, renderDiagnosisTable } from './render.js';
export { runDiagnosis } from './run.js';
export { parseTarget } from './target.js';
export type { DiagnosisReport } from './verdict.js';
