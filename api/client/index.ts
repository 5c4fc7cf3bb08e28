/** The Repair-Service API v1 client: what a generated project imports. */
export { type ApiPromise, type ApiResponse, type CallOptions, createClient } from './client.js';
export { type ClientOptions, type ListOptions, type RepairServiceClient } from './client.js';
export * from './errors.js';
export { type NextStep, type NextStepKind, nextStep } from './next-step.js';
export { ApiKey } from './api-key.js';
export { type LogLevel, type Logger, LOG_LEVELS, LOG_LEVEL_ENV } from './logger.js';
export { type RateLimitInfo, RATE_LIMIT_POLICY, parseRateLimitInfo } from './retry.js';
