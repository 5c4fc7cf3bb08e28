/**
 * Client options and their defaults, checked once at `createClient` with errors that
 * name the option and the bad value.
 */
import type { Dispatcher } from 'undici';
import { type AuthScheme, type TenantResource, checkBaseUrl, isAuthScheme, validateTenantSlug } from '../contract/index.js';
import { ApiKey } from './api-key.js';
import type { Clock } from './clock.js';
import type { ErrorHandlers } from './handlers.js';
import type { LogLevel } from './log-level.js';
import type { LogArgOrder, LoggerLike } from './logger.js';
import type { QueryParams } from './query.js';
import type { RetryBudgetOptions } from './retry-budget.js';
import type { RetryEvent } from './retry-event.js';
import type { CaOption } from './tls.js';
import type { Validator } from './validate.js';

/** Client-wide parse hooks, per tenant resource: every list of that resource is checked with it. */
export type ParseMap = { readonly [R in TenantResource]?: Validator<unknown> };

export interface ClientOptions<P extends ParseMap = ParseMap> {
  /** `{base_url}`, ending in `/api/v1`. */
  readonly baseUrl: string;
  /** An `ApiKey`, or the raw value (wrapped as alias `api-key`). */
  readonly apiKey: ApiKey | string;
  readonly authScheme?: AuthScheme;
  /** Default tenant for the tenant methods. */
  readonly tenant?: string;
  readonly maxRetries?: number;
  readonly connectTimeoutMs?: number;
  readonly attemptTimeoutMs?: number;
  readonly totalTimeoutMs?: number;
  /** A server wait longer than this fails at once with `RateLimitError.retryAfterMs`. */
  readonly maxRetryAfterMs?: number;
  /** Attempts in flight at once; unlimited by default. */
  readonly maxConcurrency?: number;
  readonly maxBodyBytes?: number;
  /** Client-wide retry token bucket; `false` turns it off. */
  readonly retryBudget?: RetryBudgetOptions | false;
  /** `console` (the default), pino, bunyan, or any `{ warn, error, info?, debug? }`. */
  readonly logger?: LoggerLike;
  /** `debug`, `info`, `warn`, `error` or `silent`; default `REPAIR_API_LOG`, else `warn` for the console and `info` for your logger. */
  readonly logLevel?: LogLevel;
  /** Argument order of your logger's functions; detected when omitted (pino and bunyan: fields first). */
  readonly logArgs?: LogArgOrder;
  /** PEM CA certificate(s) this client's connections trust instead of Node's defaults (https only). */
  readonly ca?: CaOption;
  /** DNS name sent as SNI and checked against the certificate, when the URL has an IP or another name. */
  readonly servername?: string;
  /** Parse hooks per resource, e.g. `{ repairs: RepairSchema }`; a call's own `parse` wins. */
  readonly parse?: P;
  readonly onRetry?: (event: RetryEvent) => void;
  /** Tests pass a MockAgent; when given, the client neither creates nor closes an Agent. */
  readonly dispatcher?: Dispatcher;
  readonly clock?: Clock;
  /** Returns a number in [0, 1); jitter only. */
  readonly random?: () => number;
  readonly handlers?: Partial<ErrorHandlers>;
}

/** Per-call overrides. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly attemptTimeoutMs?: number;
  readonly totalTimeoutMs?: number;
  readonly maxRetries?: number;
  /** Query parameters, encoded for you; names that look like a credential (`api_key`, `token`...) are refused. */
  readonly query?: QueryParams;
}

export interface TenantCallOptions extends CallOptions {
  /** Overrides the client's `tenant`. */
  readonly tenant?: string;
}

/** A list call: `parse` checks (and may transform) every item. */
export interface ListOptions<T = unknown> extends TenantCallOptions {
  readonly parse?: Validator<T>;
}

/** `get` and `platform.get`: `parse` checks the whole `data`. */
export interface GetOptions<T = unknown> extends CallOptions {
  readonly parse?: Validator<T>;
}

/** Following `Link: rel="next"`: `maxPages` (default 100) stops a runaway listing with a PaginationError. */
export interface PaginateOptions<T = unknown> extends ListOptions<T> {
  readonly maxPages?: number;
}

export const CLIENT_DEFAULTS = {
  authScheme: 'bearer' as AuthScheme,
  maxRetries: 3,
  connectTimeoutMs: 5_000,
  attemptTimeoutMs: 15_000,
  totalTimeoutMs: 60_000,
  maxRetryAfterMs: 30_000,
  maxConcurrency: Number.POSITIVE_INFINITY,
};

export interface Limits {
  readonly maxRetries: number;
  readonly attemptTimeoutMs: number;
  readonly totalTimeoutMs: number;
}

function checkCount(name: string, value: number | undefined, min: number, allowInfinity = false): void {
  if (value === undefined) return;
  const ok = typeof value === 'number' && (Number.isInteger(value) || (allowInfinity && value === Number.POSITIVE_INFINITY)) && value >= min;
  if (!ok) throw new TypeError(`option "${name}" must be an integer >= ${min}, got ${String(value)}`);
}

/** Pages `paginate` reads before it stops with a PaginationError (`page_cap`), unless `maxPages` says otherwise. */
export const DEFAULT_MAX_PAGES = 100;

export function checkMaxPages(value: number | undefined): number {
  checkCount('maxPages', value, 1);
  return value ?? DEFAULT_MAX_PAGES;
}

export function checkLimits(where: string, limits: Partial<Limits>): void {
  checkCount(`${where}maxRetries`, limits.maxRetries, 0);
  checkCount(`${where}attemptTimeoutMs`, limits.attemptTimeoutMs, 1);
  checkCount(`${where}totalTimeoutMs`, limits.totalTimeoutMs, 1);
}

export function checkTenantOption(name: string, tenant: string): void {
  const check = validateTenantSlug(tenant);
  if (!check.ok) throw new TypeError(`option "${name}" ${JSON.stringify(tenant)} ${check.reason}`);
}

/** The client's `baseUrl` option, by the contract's one base-URL check. */
export function baseUrlOption(value: unknown): URL {
  if (typeof value !== 'string' || value === '') throw new TypeError('option "baseUrl" is required (the address ending in /api/v1)');
  const check = checkBaseUrl(value);
  if (!check.ok) throw new TypeError(`option "baseUrl" ${check.reason}`);
  return check.url;
}

export function toApiKey(value: ApiKey | string | undefined): ApiKey {
  if (value instanceof ApiKey) return value;
  if (typeof value === 'string') return new ApiKey(value);
  // An ApiKey from another copy of this file still works: it has reveal() and alias.
  if (value && typeof (value as ApiKey).reveal === 'function') return new ApiKey((value as ApiKey).reveal(), (value as ApiKey).alias);
  throw new TypeError('option "apiKey" is required (an ApiKey or the key string)');
}

export function checkClientOptions(options: ClientOptions<ParseMap>): void {
  if (options.authScheme !== undefined && !isAuthScheme(options.authScheme)) {
    throw new TypeError(`option "authScheme" must be "bearer" or "x-api-key", got ${JSON.stringify(options.authScheme)}`);
  }
  if (options.tenant !== undefined) checkTenantOption('tenant', options.tenant);
  checkLimits('', options);
  checkCount('connectTimeoutMs', options.connectTimeoutMs, 1);
  checkCount('maxRetryAfterMs', options.maxRetryAfterMs, 0);
  checkCount('maxConcurrency', options.maxConcurrency, 1, true);
  checkCount('maxBodyBytes', options.maxBodyBytes, 1);
  if (options.logArgs !== undefined && options.logArgs !== 'fields-first' && options.logArgs !== 'message-first') {
    throw new TypeError(`option "logArgs" must be "fields-first" or "message-first", got ${JSON.stringify(options.logArgs)}`);
  }
  const budget = options.retryBudget;
  if (budget) {
    if (!(budget.capacity >= 1)) throw new TypeError(`option "retryBudget.capacity" must be >= 1, got ${String(budget.capacity)}`);
    if (!(budget.refillPerSecond >= 0)) throw new TypeError(`option "retryBudget.refillPerSecond" must be >= 0, got ${String(budget.refillPerSecond)}`);
  }
}
