/** The Repair-Service API v1 client: the public surface a generated project imports. */
export {
  createClient,
  type CallOptions,
  type ClientOptions,
  type GetOptions,
  type ItemsOf,
  type ListOptions,
  type PaginateOptions,
  type ParseMap,
  type RepairServiceClient,
  type ResourceItems,
  type ResourceList,
  type TenantCallOptions,
} from './client.js';
export type { ApiPromise, ApiResponse, WithResponse } from './api-promise.js';
export type { Page, Paginated } from './paginate.js';
export * from './errors.js';
export { type NextStep, type NextStepKind, nextStep } from './next-step.js';
export { ApiKey, redactSecrets } from './api-key.js';
export { type ErrorHandlers, type ErrorHandler, type ErrorContext, defaultErrorHandlers, handlerLine } from './handlers.js';
export { type ClientLogger, type LoggerLike, type LogArgOrder, type LogFn, type LogFields, consoleLogger, silentLogger } from './logger.js';
export { type LogLevel, LOG_LEVELS, LOG_LEVEL_ENV } from './log-level.js';
export { type QueryParams, type QueryValue, isCredentialName } from './query.js';
export type { CaOption } from './tls.js';
export type { Parser, SafeParser, StandardSchemaLike, TypeGuard, Validator } from './validate.js';
export { type LinkValue, parseLinkHeader } from './link-header.js';
export { type Clock, systemClock } from './clock.js';
export { type RateLimitInfo, parseRateLimitInfo } from './retry-hints.js';
export type { RetryEvent } from './retry-event.js';
export type { RetryBudgetOptions } from './retry-budget.js';
