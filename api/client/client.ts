/**
 * `createClient`: the typed API v1 client a generated project uses. Each method names an
 * endpoint from the contract; the call itself (retries, gate, budget, errors) is `call.ts`.
 */
import { Agent, type Dispatcher } from 'undici';
import { createDeadlineTimer } from './attempt-deadline.js';
import { type EndpointId, type TenantResource, ENDPOINTS, TENANT_RESOURCES, platformPath, tenantResourcePath } from '../contract/index.js';
import type { ApiKey } from './api-key.js';
import { type CallPlan, type CallRuntime, executeCall } from './call.js';
import { systemClock } from './clock.js';
import { createConcurrencyLimiter } from './concurrency.js';
import { type ApiError, isAuthenticationError, isPermissionDeniedError, isRateLimitError, isTenantMismatchError } from './errors.js';
import { createRateLimitGate } from './gate.js';
import { type ErrorContext, type ErrorHandlers, defaultErrorHandlers } from './handlers.js';
import { type ClientLogger, consoleLogger, redactingLogger } from './logger.js';
import {
  type CallOptions,
  type ClientOptions,
  type TenantCallOptions,
  CLIENT_DEFAULTS,
  baseUrlOption,
  checkClientOptions,
  checkLimits,
  type Limits,
  checkTenantOption,
  toApiKey,
} from './options.js';
import { DEFAULT_RETRY_BUDGET, createRetryBudget, unlimitedRetryBudget } from './retry-budget.js';

export type { CallOptions, ClientOptions, TenantCallOptions } from './options.js';

/** `data` of a list endpoint; the spec does not show the items' fields. */
export type ResourceList = readonly unknown[];

export interface RepairServiceClient {
  readonly baseUrl: string;
  /** `host[:port]` of the base URL, for logs. */
  readonly host: string;
  readonly keyAlias: string;
  /** GET / : the API index (needs a key). */
  index(options?: CallOptions): Promise<unknown>;
  /** GET /docs : public, sent without the key. */
  docs(options?: CallOptions): Promise<unknown>;
  listClients(options?: TenantCallOptions): Promise<ResourceList>;
  listBikes(options?: TenantCallOptions): Promise<ResourceList>;
  listRepairs(options?: TenantCallOptions): Promise<ResourceList>;
  listLogs(options?: TenantCallOptions): Promise<ResourceList>;
  readonly platform: {
    /** GET /platform/{path}; platform keys only. */
    get(path: string, options?: CallOptions): Promise<unknown>;
  };
  /** Closes the client's own connection pool (an injected dispatcher is left to its owner). */
  close(): Promise<void>;
}

function notify(handlers: ErrorHandlers, logger: ClientLogger) {
  return async (error: ApiError, ctx: ErrorContext): Promise<void> => {
    try {
      if (isRateLimitError(error)) await handlers.onRateLimited(error, ctx);
      else if (isAuthenticationError(error)) await handlers.onAuthError(error, ctx);
      else if (isTenantMismatchError(error)) await handlers.onTenantMismatch(error, ctx);
      else if (isPermissionDeniedError(error)) await handlers.onInsufficientScope(error, ctx);
    } catch (handlerError) {
      // An observer must not replace the API error the caller is about to get.
      logger.error('repair-service error handler threw', { handler: error.name, error: String(handlerError) });
    }
  };
}

const NO_OPTIONS: TenantCallOptions = Object.freeze({});

/** Endpoints that carry the key (all but the public ones). */
const SENDS_KEY: ReadonlySet<EndpointId> = new Set(ENDPOINTS.filter((e) => e.access !== 'public').map((e) => e.id));

function tenantPaths(tenant: string): Readonly<Record<TenantResource, string>> {
  const paths = {} as Record<TenantResource, string>;
  for (const resource of TENANT_RESOURCES) paths[resource] = tenantResourcePath(tenant, resource);
  return paths;
}

function ownAgent(options: ClientOptions): Dispatcher {
  const max = options.maxConcurrency ?? CLIENT_DEFAULTS.maxConcurrency;
  return new Agent({
    connect: { timeout: options.connectTimeoutMs ?? CLIENT_DEFAULTS.connectTimeoutMs },
    ...(Number.isFinite(max) ? { connections: max } : {}),
  });
}

export function createClient(options: ClientOptions): RepairServiceClient {
  const url = baseUrlOption(options?.baseUrl);
  checkClientOptions(options);
  const key: ApiKey = toApiKey(options.apiKey);
  const clock = options.clock ?? systemClock();
  const logger = redactingLogger(options.logger ?? consoleLogger(), [key]);
  const defaults = defaultErrorHandlers(logger);
  const given = options.handlers ?? {};
  const handlers: ErrorHandlers = {
    onAuthError: given.onAuthError ?? defaults.onAuthError,
    onTenantMismatch: given.onTenantMismatch ?? defaults.onTenantMismatch,
    onInsufficientScope: given.onInsufficientScope ?? defaults.onInsufficientScope,
    onRateLimited: given.onRateLimited ?? defaults.onRateLimited,
  };
  const dispatcher = options.dispatcher ?? ownAgent(options);
  const onError = notify(handlers, logger);
  const deadlineTimer = createDeadlineTimer();
  const runtime: CallRuntime = {
    dispatcher,
    baseUrl: options.baseUrl,
    host: url.host,
    key,
    authScheme: options.authScheme ?? CLIENT_DEFAULTS.authScheme,
    maxRetryAfterMs: options.maxRetryAfterMs ?? CLIENT_DEFAULTS.maxRetryAfterMs,
    maxBodyBytes: options.maxBodyBytes,
    clock,
    random: options.random ?? Math.random,
    gate: createRateLimitGate(),
    budget: options.retryBudget === false ? unlimitedRetryBudget() : createRetryBudget(options.retryBudget ?? DEFAULT_RETRY_BUDGET, clock.now()),
    limiter: createConcurrencyLimiter(options.maxConcurrency ?? CLIENT_DEFAULTS.maxConcurrency),
    deadlineTimer,
    logger,
    onRetry: options.onRetry,
    onFinalError: (error) =>
      onError(error, { keyAlias: key.alias, keyHint: key.hint, tenant: error.tenant, host: url.host, method: error.method, path: error.path }),
  };

  // Worked out once, not per call: a call without overrides reuses these.
  const clientLimits: Limits = {
    maxRetries: options.maxRetries ?? CLIENT_DEFAULTS.maxRetries,
    attemptTimeoutMs: options.attemptTimeoutMs ?? CLIENT_DEFAULTS.attemptTimeoutMs,
    totalTimeoutMs: options.totalTimeoutMs ?? CLIENT_DEFAULTS.totalTimeoutMs,
  };
  const defaultTenantPaths = options.tenant === undefined ? undefined : tenantPaths(options.tenant);

  const call = (endpoint: EndpointId, path: string, opts: CallOptions = NO_OPTIONS, tenant?: string): Promise<unknown> => {
    const overrides = opts.maxRetries !== undefined || opts.attemptTimeoutMs !== undefined || opts.totalTimeoutMs !== undefined;
    if (overrides) {
      try {
        checkLimits('call option ', opts);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const plan: CallPlan = {
      endpoint,
      path,
      tenant,
      sendKey: SENDS_KEY.has(endpoint),
      signal: opts.signal,
      limits: overrides
        ? {
            maxRetries: opts.maxRetries ?? clientLimits.maxRetries,
            attemptTimeoutMs: opts.attemptTimeoutMs ?? clientLimits.attemptTimeoutMs,
            totalTimeoutMs: opts.totalTimeoutMs ?? clientLimits.totalTimeoutMs,
          }
        : clientLimits,
    };
    return executeCall(runtime, plan);
  };

  const list = (resource: TenantResource, opts: TenantCallOptions = NO_OPTIONS): Promise<ResourceList> => {
    const tenant = opts.tenant ?? options.tenant;
    // The client's own tenant was checked at creation and its paths built then.
    if (defaultTenantPaths && tenant === options.tenant) return call(resource, defaultTenantPaths[resource], opts, tenant) as Promise<ResourceList>;
    try {
      if (tenant === undefined) throw new TypeError(`${resource}: no tenant: pass { tenant } to the call or set the client's "tenant" option`);
      checkTenantOption('tenant', tenant);
    } catch (error) {
      return Promise.reject(error);
    }
    // The contract's envelope check already refused a non-array `data` for list endpoints.
    return call(resource, tenantResourcePath(tenant, resource), opts, tenant) as Promise<ResourceList>;
  };

  let closed = false;
  return {
    baseUrl: options.baseUrl,
    host: url.host,
    keyAlias: key.alias,
    index: (opts) => call('index', '/', opts),
    docs: (opts) => call('docs', '/docs', opts),
    listClients: (opts) => list('clients', opts),
    listBikes: (opts) => list('bikes', opts),
    listRepairs: (opts) => list('repairs', opts),
    listLogs: (opts) => list('logs', opts),
    platform: {
      get: (path, opts) => {
        if (typeof path !== 'string' || path.replace(/^\/+/, '') === '' || /[?#]/.test(path)) {
          return Promise.reject(new TypeError(`platform.get: path must be a sub-path below /platform/ without a query, got ${JSON.stringify(path)}`));
        }
        return call('platform', platformPath(path), opts);
      },
    },
    async close() {
      if (closed || options.dispatcher) return;
      closed = true;
      await dispatcher.close();
    },
  };
}
