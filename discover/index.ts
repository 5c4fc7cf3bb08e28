/** `repairmon discover`: the CLI imports this file only. */
export { type DialectPairs, dialectOfReport } from './dialect.js';
export { MAX_REQUESTS } from './plan.js';
export { renderDiscoveryJson, renderDiscoveryTable, renderMonitorConfig } from './render.js';
export { discoverWith, runDiscovery } from './run.js';
export type { DiscoveryReport } from './report.js';
export type { Refusal } from './types.js';
