/** `repairmon discover`: the CLI imports this file only. */
export { MAX_REQUESTS } from './plan.js';
export { renderDiscoveryJson, renderDiscoveryTable, renderMonitorConfig } from './render.js';
export { type DiscoveryOptions, type DiscoverySettings, type Send, discoverWith, runDiscovery } from './run.js';
export type { DiscoveryReport, Reading, Refusal } from './types.js';
