/**
 * `repairmon serve`'s monitor: the one file other folders import (the CLI's serve, demo and
 * check-config, the bench). README.md says what lives where.
 */
export { configWarnings } from './check/advice.js';
export { connectTarget, formatConnect, keyFaults } from './check/connect.js';
export { configSummary } from './check/summary.js';
export { cronProblem } from './config/cron.js';
export { loadConfigFile, parseConfigText, parseConfigValue } from './config/load.js';
export { CANARY_NAMES, type CanaryName } from './config/schema.js';
export { type MonitorConfig, configKeys, configSecrets } from './config/types.js';
export { formatIssues } from '../lib/index.js';
export { demoConfig, demoRawConfig } from './demo-config.js';
export { type MonitorServer, createMonitorServer } from './http/server.js';
export { buildPlan } from './probe/plan.js';
export { guardReload, holdStartupHangups, parseListen, serveUntil, startServing } from './run-service.js';
export { type Monitor, createMonitor } from './service.js';
export { NO_SHARD, formatShard, parseShard } from './shard.js';
export { type ProbeTracer, TracingUnavailableError, createProbeTracer } from './tracing.js';
