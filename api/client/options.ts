/**
 * Client options and their defaults, checked once at `createClient` with errors that
 * name the option and the bad value.
 */
import type { Dispatcher } from 'undici';
import { type AuthScheme, checkBaseUrl, isAuthScheme, validateTenantSlug } from '../contract/index.js';
import { ApiKey } from './api-key.js';
import type { Clock } from './clock.js';
import type { ErrorHandlers } from './handlers.js';
import type { ClientLogger } from './logger.js';
import type { RetryBudgetOptions } from './retry-budget.js';
import type { RetryEvent } from './retry-event.js';

export interface ClientOptions {
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
  readonly logger?: ClientLogger;
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
}

export interface TenantCallOptions extends CallOptions {
  /** Overrides the client's `tenant`. */
  readonly tenant?: string;
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

export function checkClientOptions(options: ClientOptions): void {
  if (options.authScheme !== undefined && !isAuthScheme(options.authScheme)) {
    throw new TypeError(`option "authScheme" must be "bearer" or "x-api-key", got ${JSON.stringify(options.authScheme)}`);
  }
  if (options.tenant !== undefined) checkTenantOption('tenant', options.tenant);
  checkLimits('', options);
  checkCount('connectTimeoutMs', options.connectTimeoutMs, 1);
  checkCount('maxRetryAfterMs', options.maxRetryAfterMs, 0);
  checkCount('maxConcurrency', options.maxConcurrency, 1, true);
  checkCount('maxBodyBytes', options.maxBodyBytes, 1);
  const budget = options.retryBudget;
  if (budget) {
    if (!(budget.capacity >= 1)) throw new TypeError(`option "retryBudget.capacity" must be >= 1, got ${String(budget.capacity)}`);
    if (!(budget.refillPerSecond >= 0)) throw new TypeError(`option "retryBudget.refillPerSecond" must be >= 0, got ${String(budget.refillPerSecond)}`);
  }
}
