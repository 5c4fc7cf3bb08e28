/** The Repair-Service API v1 client: what a generated project imports. */
export { type ApiPromise, type ApiResponse, type CallOptions, type ClientOptions, type GetOptions, type ListOptions, type RepairServiceClient, createClient } from './client.js';
export * from './errors.js';
export { type NextStep, type NextStepKind, nextStep } from './next-step.js';
export { ApiKey } from './api-key.js';
export { type LogLevel, type Logger, LOG_LEVELS, LOG_LEVEL_ENV } from './logger.js';
export type { Validator } from './parse.js';
export { type RateLimitInfo, parseRateLimitInfo } from './retry-hints.js';
