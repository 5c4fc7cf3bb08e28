/** The Repair-Service API v1 client: the public surface a generated project imports. */
export { createClient, type ClientOptions, type RepairServiceClient, type CallOptions, type TenantCallOptions, type ResourceList } from './client.js';
export * from './errors.js';
export { ApiKey, redactSecrets } from './api-key.js';
export { type ErrorHandlers, type ErrorHandler, type ErrorContext, defaultErrorHandlers } from './handlers.js';
export { type ClientLogger, type LogFn, type LogFields, consoleLogger, silentLogger } from './logger.js';
export { type Clock, systemClock } from './clock.js';
export type { RetryEvent } from './retry-event.js';
export type { RetryBudgetOptions } from './retry-budget.js';
