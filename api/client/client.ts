/**
 * `createClient`: the typed API v1 client a generated project uses. Each method names an
 * endpoint from the contract; building a call is `requests.ts`, running it (retries, gate,
 * budget, errors) is `call.ts`.
 */
import { Agent, type Dispatcher } from 'undici';
import type { TenantResource } from '../contract/index.js';
import type { ApiKey } from './api-key.js';
import type { ApiPromise } from './api-promise.js';
import { createDeadlineTimer } from './attempt-deadline.js';
import type { CallRuntime } from './call.js';
import { systemClock } from './clock.js';
import { createConcurrencyLimiter } from './concurrency.js';
import { paginationFailure } from './error-factory.js';
import { type ApiError, isAuthenticationError, isNotFoundError, isPermissionDeniedError, isRateLimitError, isTenantMismatchError } from './errors.js';
import { createRateLimitGate } from './gate.js';
import { type ErrorContext, type ErrorHandlers, defaultErrorHandlers } from './handlers.js';
import { resolveLogLevel } from './log-level.js';
import { type ClientLogger, consoleLogger, createLogger, detectArgOrder, isConsole } from './logger.js';
import {
  type CallOptions,
  type ClientOptions,
  type GetOptions,
  type ListOptions,
  type PaginateOptions,
  type ParseMap,
  CLIENT_DEFAULTS,
  baseUrlOption,
  checkClientOptions,
  checkMaxPages,
  toApiKey,
} from './options.js';
import { type Paginated, paginate } from './paginate.js';
import { encodeQuery } from './query.js';
import { Requests } from './requests.js';
import { DEFAULT_RETRY_BUDGET, createRetryBudget, unlimitedRetryBudget } from './retry-budget.js';
import { type TlsSettings, tlsSettings } from './tls.js';
import type { Validator } from './validate.js';

export type { CallOptions, ClientOptions, GetOptions, ListOptions, PaginateOptions, ParseMap, TenantCallOptions } from './options.js';

/** `data` of a list endpoint; the spec does not show the items' fields, so they are `unknown` until typed. */
export type ResourceList<T = unknown> = readonly T[];

/** The item type of each tenant resource. */
export type ResourceItems = { readonly [R in TenantResource]: unknown };

type Output<V> = V extends Validator<infer T> ? T : unknown;
/** Item types from the client-wide `parse` option: `{ repairs: RepairSchema }` types repairs. */
export type ItemsOf<P> = { readonly [R in TenantResource]: P extends { readonly [K in R]?: infer V } ? (undefined extends V ? unknown : Output<V>) : unknown };

export interface RepairServiceClient<I extends ResourceItems = ResourceItems> {
  readonly baseUrl: string;
  /** `host[:port]` of the base URL, for logs. */
  readonly host: string;
  readonly keyAlias: string;
  /** GET / : the API index (needs a key). */
  index(options?: CallOptions): ApiPromise<unknown>;
  /** GET /docs : public, sent without the key. */
  docs(options?: CallOptions): ApiPromise<unknown>;
  listClients<T = I['clients']>(options?: ListOptions<T>): ApiPromise<ResourceList<T>>;
  listBikes<T = I['bikes']>(options?: ListOptions<T>): ApiPromise<ResourceList<T>>;
  listRepairs<T = I['repairs']>(options?: ListOptions<T>): ApiPromise<ResourceList<T>>;
  listLogs<T = I['logs']>(options?: ListOptions<T>): ApiPromise<ResourceList<T>>;
  /** GET any path inside `{base_url}` with the key, e.g. `get('/tenants/x/repairs/17')`. */
  get<T = unknown>(path: string, options?: GetOptions<T>): ApiPromise<T>;
  readonly platform: {
    /** GET /platform/{path}; platform keys only. */
    get<T = unknown>(path: string, options?: GetOptions<T>): ApiPromise<T>;
  };
  /** Lists that follow `Link: rel="next"`; without the header, the one page. */
  readonly paginate: { readonly [R in TenantResource]: <T = I[R]>(options?: PaginateOptions<T>) => Paginated<T> };
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
      else if (isNotFoundError(error)) await handlers.onNotFound?.(error, ctx);
    } catch (handlerError) {
      // An observer must not replace the API error the caller is about to get.
      logger.error('repair-service error handler threw', { handler: error.name, error: String(handlerError) });
    }
  };
}

function ownAgent(options: ClientOptions<ParseMap>, tls: TlsSettings | undefined): Dispatcher {
  const max = options.maxConcurrency ?? CLIENT_DEFAULTS.maxConcurrency;
  return new Agent({
    connect: { timeout: options.connectTimeoutMs ?? CLIENT_DEFAULTS.connectTimeoutMs, ...tls },
    ...(Number.isFinite(max) ? { connections: max } : {}),
  });
}

/** The logger: `REPAIR_API_LOG` is read here, once; the `logLevel` option wins over it. */
function clientLogger(options: ClientOptions<ParseMap>, key: ApiKey): ClientLogger {
  const given = options.logger;
  const sink = given === undefined || given === globalThis.console ? consoleLogger() : given;
  const level = resolveLogLevel(options.logLevel, process.env, isConsole(sink) ? 'warn' : 'info');
  return createLogger(sink, { level, order: options.logArgs ?? detectArgOrder(sink), keys: [key] });
}

function handlersFor(options: ClientOptions<ParseMap>, logger: ClientLogger): ErrorHandlers {
  const defaults = defaultErrorHandlers(logger);
  const given = options.handlers ?? {};
  return {
    onAuthError: given.onAuthError ?? defaults.onAuthError,
    onTenantMismatch: given.onTenantMismatch ?? defaults.onTenantMismatch,
    onInsufficientScope: given.onInsufficientScope ?? defaults.onInsufficientScope,
    onRateLimited: given.onRateLimited ?? defaults.onRateLimited,
    onNotFound: given.onNotFound ?? defaults.onNotFound,
  };
}

function paginators(requests: Requests, key: ApiKey, base: URL) {
  const one = (resource: TenantResource) => (opts: PaginateOptions<unknown> = {}): Paginated<unknown> => {
    // Every page's query is in its target: the caller's for the first, the server's after it.
    const pageOptions = { ...opts, query: undefined };
    return paginate({
      base,
      start: () => {
        const { path } = requests.listTarget(resource, opts);
        const query = opts.query === undefined ? undefined : encodeQuery(opts.query, [key]);
        return { first: { path, query }, maxPages: checkMaxPages(opts.maxPages) };
      },
      fetch: (target) => requests.page(resource, { ...requests.listTarget(resource, opts), path: target.path, encodedQuery: target.query }, pageOptions),
      fail: (call, problem, detail, link, pages) => paginationFailure(call.context(), problem, detail, link, pages),
    });
  };
  return { clients: one('clients'), bikes: one('bikes'), repairs: one('repairs'), logs: one('logs') };
}

export function createClient<P extends ParseMap = Record<never, never>>(options: ClientOptions<P>): RepairServiceClient<ItemsOf<P>> {
  const url = baseUrlOption(options?.baseUrl);
  checkClientOptions(options);
  const key: ApiKey = toApiKey(options.apiKey);
  const tls = tlsSettings(options, url);
  const clock = options.clock ?? systemClock();
  const logger = clientLogger(options, key);
  const dispatcher = options.dispatcher ?? ownAgent(options, tls);
  const onError = notify(handlersFor(options, logger), logger);
  const runtime: CallRuntime = {
    dispatcher,
    baseUrl: options.baseUrl,
    host: url.host,
    key,
    authScheme: options.authScheme ?? CLIENT_DEFAULTS.authScheme,
    maxRetryAfterMs: options.maxRetryAfterMs ?? CLIENT_DEFAULTS.maxRetryAfterMs,
    maxBodyBytes: options.maxBodyBytes,
    connectTimeoutMs: options.dispatcher ? undefined : (options.connectTimeoutMs ?? CLIENT_DEFAULTS.connectTimeoutMs),
    clock,
    random: options.random ?? Math.random,
    gate: createRateLimitGate(),
    budget: options.retryBudget === false ? unlimitedRetryBudget() : createRetryBudget(options.retryBudget ?? DEFAULT_RETRY_BUDGET, clock.now()),
    limiter: createConcurrencyLimiter(options.maxConcurrency ?? CLIENT_DEFAULTS.maxConcurrency),
    deadlineTimer: createDeadlineTimer(),
    logger,
    onRetry: options.onRetry,
    onFinalError: (error) =>
      onError(error, { keyAlias: key.alias, keyHint: key.hint, tenant: error.tenant, host: url.host, method: error.method, path: error.path }),
  };
  const requests = new Requests(runtime, {
    baseUrl: url,
    tenant: options.tenant,
    parse: options.parse,
    // Worked out once, not per call: a call without overrides reuses these.
    limits: {
      maxRetries: options.maxRetries ?? CLIENT_DEFAULTS.maxRetries,
      attemptTimeoutMs: options.attemptTimeoutMs ?? CLIENT_DEFAULTS.attemptTimeoutMs,
      totalTimeoutMs: options.totalTimeoutMs ?? CLIENT_DEFAULTS.totalTimeoutMs,
    },
  });

  let closed = false;
  const client: RepairServiceClient = {
    baseUrl: options.baseUrl,
    host: url.host,
    keyAlias: key.alias,
    index: (opts) => requests.fixed('index', '/', opts),
    docs: (opts) => requests.fixed('docs', '/docs', opts),
    listClients: (opts) => requests.list('clients', opts) as ApiPromise<ResourceList<never>>,
    listBikes: (opts) => requests.list('bikes', opts) as ApiPromise<ResourceList<never>>,
    listRepairs: (opts) => requests.list('repairs', opts) as ApiPromise<ResourceList<never>>,
    listLogs: (opts) => requests.list('logs', opts) as ApiPromise<ResourceList<never>>,
    get: (path, opts) => requests.get(path, opts) as ApiPromise<never>,
    platform: { get: (path, opts) => requests.platformGet(path, opts) as ApiPromise<never> },
    paginate: paginators(requests, key, url) as RepairServiceClient['paginate'],
    async close() {
      if (closed || options.dispatcher) return;
      closed = true;
      await dispatcher.close();
    },
  };
  return client as RepairServiceClient<ItemsOf<P>>;
}
