/**
 * `repairmon probe`'s diagnosis, and the observation types `discover/` shares. The CLI and
 * `discover/` import this file only.
 */
export { type KeySource, type TtyInput, chooseKeySource, keyFlagsHint, readKey } from './key-source.js';
export {
  type Answered,
  type Call,
  type CallRecord,
  DOCS_CALL,
  MAX_PLATFORM_CALLS,
  type Observations,
  answered,
  errorOf,
  isResponse,
  okData,
  tenantsListed,
  unlistedNotFound,
} from './observations.js';
export { DEFAULT_MAX_WAIT_S, REQUEST_BUDGET } from './pacing.js';
export { type Progress, createProgress } from './progress.js';
export { DEFAULT_WIDTH, type TableWidth, renderDiagnosisJson, renderDiagnosisTable } from './render.js';
export { type DiagnosisOptions, runDiagnosis } from './run.js';
export { type DiagnosisTarget, parseTarget } from './target.js';
export type { DiagnosisReport, DiagnosisRow, Finding } from './types.js';
