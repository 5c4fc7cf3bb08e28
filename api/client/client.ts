/**
 * `createClient`: the typed API v1 client. Each method names an endpoint of the contract; a
 * call's options are checked before anything is sent (a TypeError naming the option), then
 * `call.ts` runs it. Every method returns an `ApiPromise`: a Promise of `data` with
 * `withResponse()` for the status, headers, request id and rate-limit state around it.
 */
import { X509Certificate } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import { type AuthScheme, type EndpointId, type TenantResource, checkBaseUrl, isAuthScheme, platformPath, tenantResourcePath, validateTenantSlug } from '../contract/index.js';
import { ApiKey } from './api-key.js';
import { type ApiResponse, Call, type Limits, type Plan, type Runtime } from './call.js';
import { type LogLevel, type Logger, clientLog, resolveLogLevel } from './logger.js';
import { type Validator, toCheck } from './parse.js';
import { checkSubPath, routeOf, staysInside } from './paths.js';
import { type QueryParams, encodeQuery } from './query.js';
import { createRateLimitGate } from './retry-policy.js';

export type { ApiResponse } from './call.js';

export interface ClientOptions {
  /** `{base_url}`, ending in `/api/v1`: http(s), no credentials or query. */
  readonly baseUrl: string;
  /** An `ApiKey`, or the raw value (wrapped as alias `api-key`). */
  readonly apiKey: ApiKey | string;
  /** `bearer` (`Authorization: Bearer`, the default) or `x-api-key`. */
  readonly authScheme?: AuthScheme;
  /** Default tenant slug of the tenant methods. */
  readonly tenant?: string;
  /** Retries after the first attempt (default 3). */
  readonly maxRetries?: number;
  /** One attempt: connecting, headers and body (default 15 000). */
  readonly attemptTimeoutMs?: number;
  /** The whole call, waits and retries included (default 60 000). */
  readonly totalTimeoutMs?: number;
  /** A server wait longer than this fails at once with `RateLimitError.retryAfterMs` (default 30 000). */
  readonly maxRetryAfterMs?: number;
  /** PEM CA certificate(s) the client's own connections trust instead of Node's (https only). */
  readonly ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** Your own undici dispatcher (a MockAgent in tests, an Agent with your settings); you close it. */
  readonly dispatcher?: Dispatcher;
  /** Where `debug`/`info` lines go (default `console`). */
  readonly logger?: Logger;
  /** `debug`, `info`, `warn`, `error` or `silent`; default `REPAIR_API_LOG`, else `warn`. */
  readonly logLevel?: LogLevel;
}

/** Per-call options. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly attemptTimeoutMs?: number;
  readonly totalTimeoutMs?: number;
  readonly maxRetries?: number;
  /** Query parameters, encoded for you; names that look like a credential are refused. */
  readonly query?: QueryParams;
}

/** A list call: `tenant` overrides the client's; `parse` checks (and may transform) every item. */
export interface ListOptions<T = unknown> extends CallOptions {
  readonly tenant?: string;
  readonly parse?: Validator<T>;
}

/** `get` and `platform.get`: `parse` checks the whole `data`. */
export interface GetOptions<T = unknown> extends CallOptions {
  readonly parse?: Validator<T>;
}

export interface ApiPromise<T> extends Promise<T> {
  /** The data together with the response it came in; rejects as the call does. */
  withResponse(): Promise<{ readonly data: T; readonly response: ApiResponse }>;
}

export interface RepairServiceClient {
  readonly baseUrl: string;
  readonly keyAlias: string;
  /** GET / : the API index. */
  index(options?: CallOptions): ApiPromise<unknown>;
  /** GET /docs : public, sent without the key. */
  docs(options?: CallOptions): ApiPromise<unknown>;
  listClients<T = unknown>(options?: ListOptions<T>): ApiPromise<readonly T[]>;
  listBikes<T = unknown>(options?: ListOptions<T>): ApiPromise<readonly T[]>;
  listRepairs<T = unknown>(options?: ListOptions<T>): ApiPromise<readonly T[]>;
  listLogs<T = unknown>(options?: ListOptions<T>): ApiPromise<readonly T[]>;
  /** GET any path inside `{base_url}`, e.g. `get('/tenants/x/repairs/17')`. */
  get<T = unknown>(path: string, options?: GetOptions<T>): ApiPromise<T>;
  readonly platform: { get<T = unknown>(path: string, options?: GetOptions<T>): ApiPromise<T> };
  /** Closes the client's own connection pool (a `dispatcher` you passed is yours to close). */
  close(): Promise<void>;
}

interface Target {
  readonly endpoint: EndpointId | undefined;
  readonly path: string;
  readonly tenant: string | undefined;
  readonly sendKey: boolean;
}

const DEFAULTS = { maxRetries: 3, attemptTimeoutMs: 15_000, totalTimeoutMs: 60_000, maxRetryAfterMs: 30_000 };

function count(name: string, value: unknown, min: number): void {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) >= min)) throw new TypeError(`option "${name}" must be an integer >= ${min}, got ${String(value)}`);
}

function checkLimits(prefix: string, o: Partial<Limits>): void {
  count(`${prefix}maxRetries`, o.maxRetries, 0);
  count(`${prefix}attemptTimeoutMs`, o.attemptTimeoutMs, 1);
  count(`${prefix}totalTimeoutMs`, o.totalTimeoutMs, 1);
}

function slug(name: string, tenant: string): string {
  const check = validateTenantSlug(tenant);
  if (!check.ok) throw new TypeError(`option "${name}" ${JSON.stringify(tenant)} ${check.reason}`);
  return tenant;
}

function toApiKey(value: unknown): ApiKey {
  if (value instanceof ApiKey) return value;
  if (typeof value === 'string') return new ApiKey(value);
  // An ApiKey of another copy of this folder still works: it has reveal() and alias.
  const other = value as Partial<ApiKey> | undefined;
  if (typeof other?.reveal === 'function') return new ApiKey(other.reveal(), other.alias);
  throw new TypeError('option "apiKey" is required (an ApiKey or the key string)');
}

/** The PEM certificates of the `ca` option, each parsed now: a wrong file fails here, not as a TLS error later. */
function caCertificates(ca: NonNullable<ClientOptions['ca']>, url: URL): string[] {
  if (url.protocol !== 'https:') throw new TypeError(`option "ca" needs an https baseUrl, got ${url.protocol}//${url.host}`);
  const text = (Array.isArray(ca) ? ca : [ca]).map((item: string | Buffer) => String(item)).join('\n');
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  // Never echo the text: a private key pasted by mistake must not reach a log through this message.
  if (blocks.length === 0) throw new TypeError(`option "ca" ${/PRIVATE KEY-----/.test(text) ? 'holds a private key, not a certificate' : 'holds no PEM certificate (-----BEGIN CERTIFICATE-----)'}`);
  blocks.forEach((block, i) => {
    try {
      new X509Certificate(block);
    } catch {
      throw new TypeError(`option "ca": certificate ${i + 1} of ${blocks.length} does not parse as X.509`);
    }
  });
  return blocks;
}

function ownAgent(options: ClientOptions, url: URL): Dispatcher {
  const timeout = options.attemptTimeoutMs ?? DEFAULTS.attemptTimeoutMs;
  return new Agent({ connect: options.ca === undefined ? { timeout } : { timeout, ca: caCertificates(options.ca, url) } });
}

/** A caller's path in a message: quoted and cut, so a huge one cannot flood a log. */
const shown = (path: unknown): string => JSON.stringify(typeof path === 'string' && path.length > 120 ? `${path.slice(0, 119)}…` : path) ?? String(path);

export function createClient(options: ClientOptions): RepairServiceClient {
  if (typeof options?.baseUrl !== 'string' || options.baseUrl === '') throw new TypeError('option "baseUrl" is required (the address ending in /api/v1)');
  const base = checkBaseUrl(options.baseUrl);
  if (!base.ok) throw new TypeError(`option "baseUrl" ${base.reason}`);
  const url = base.url;
  if (options.authScheme !== undefined && !isAuthScheme(options.authScheme)) throw new TypeError(`option "authScheme" must be "bearer" or "x-api-key", got ${JSON.stringify(options.authScheme)}`);
  const tenant = options.tenant === undefined ? undefined : slug('tenant', options.tenant);
  checkLimits('', options);
  count('maxRetryAfterMs', options.maxRetryAfterMs, 0);
  if (options.ca !== undefined && options.dispatcher !== undefined) throw new TypeError('option "ca" configures the client\'s own connections; with "dispatcher" given, set it on that dispatcher');
  const key = toApiKey(options.apiKey);
  const dispatcher = options.dispatcher ?? ownAgent(options, url);
  const limits: Limits = {
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULTS.attemptTimeoutMs,
    totalTimeoutMs: options.totalTimeoutMs ?? DEFAULTS.totalTimeoutMs,
  };
  const rt: Runtime = {
    dispatcher,
    baseUrl: options.baseUrl,
    host: url.host,
    key,
    authScheme: options.authScheme ?? 'bearer',
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs,
    gate: createRateLimitGate(),
    headers: {},
    log: clientLog(options.logger, resolveLogLevel(options.logLevel), key),
  };

  /** Builds the call (a bad option throws here, before anything is sent) and runs it. */
  function call<T>(target: () => Target, opts: CallOptions & { readonly parse?: Validator<unknown> }, list: boolean): ApiPromise<T> {
    let started: Call | undefined;
    const promise = (async () => {
      const t = target();
      const overrides = opts.maxRetries !== undefined || opts.attemptTimeoutMs !== undefined || opts.totalTimeoutMs !== undefined;
      if (overrides) checkLimits('call option ', opts);
      const check = opts.parse === undefined ? undefined : toCheck(opts.parse, 'parse');
      const plan: Plan = {
        endpoint: t.endpoint,
        path: t.path,
        tenant: t.tenant,
        sendKey: t.sendKey,
        query: opts.query === undefined ? undefined : encodeQuery(opts.query, [key]),
        signal: opts.signal,
        limits: overrides ? { maxRetries: opts.maxRetries ?? limits.maxRetries, attemptTimeoutMs: opts.attemptTimeoutMs ?? limits.attemptTimeoutMs, totalTimeoutMs: opts.totalTimeoutMs ?? limits.totalTimeoutMs } : limits,
      };
      const running = (started = new Call(rt, plan));
      const data = await running.run();
      if (!check) return data as T;
      const items = list ? (data as readonly unknown[]) : [data];
      const out = items.map((item, i) => {
        const checked = check(item);
        if (checked.ok) return checked.value;
        const what = list ? `item ${i}` : 'data';
        throw running.error({ kind: 'parse_failed', message: `GET ${plan.path}: ${what} failed the parse hook: ${checked.issue}`, status: running.response?.status, requestId: running.response?.requestId, index: list ? i : undefined, issue: checked.issue });
      });
      return (list ? out : out[0]) as T;
    })() as ApiPromise<T>;
    promise.withResponse = () => promise.then((data) => ({ data, response: started!.withResponse() }));
    return promise;
  }

  const tenantTarget = (resource: TenantResource, slugOf: string): Target => ({ endpoint: resource, path: tenantResourcePath(slug('tenant', slugOf), resource), tenant: slugOf, sendKey: true });
  const listOf = (resource: TenantResource) => {
    // The client's own tenant was checked once, here: a call without `tenant` reuses its target.
    const own = tenant === undefined ? undefined : tenantTarget(resource, tenant);
    return <T>(opts: ListOptions<T> = {}): ApiPromise<readonly T[]> =>
      call(
        () => {
          if (opts.tenant === undefined && own) return own;
          const slugOf = opts.tenant ?? tenant;
          if (slugOf === undefined) throw new TypeError(`${resource}: no tenant: pass { tenant } to the call or set the client's "tenant" option`);
          return tenantTarget(resource, slugOf);
        },
        opts,
        true,
      );
  };

  const get = <T>(raw: unknown, opts: GetOptions<T> = {}, platform = false): ApiPromise<T> =>
    call(
      () => {
        const name = platform ? 'platform.get' : 'get';
        const check = checkSubPath(raw);
        if (!check.ok || (platform && check.path === '/')) throw new TypeError(`${name}: path ${shown(raw)} ${check.ok ? 'must be a sub-path below /platform/' : check.reason}`);
        const path = platform ? platformPath(check.path) : check.path;
        if (!staysInside(url, path, platform ? '/platform/' : '/')) throw new TypeError(`${name}: path ${shown(raw)} leaves ${platform ? '/platform/' : '{base_url}'}`);
        const route = routeOf(path);
        return { ...route, path };
      },
      opts,
      false,
    );

  let closed = false;
  return {
    baseUrl: options.baseUrl,
    keyAlias: key.alias,
    index: (opts = {}) => call(() => ({ endpoint: 'index', path: '/', tenant: undefined, sendKey: true }), opts, false),
    docs: (opts = {}) => call(() => ({ endpoint: 'docs', path: '/docs', tenant: undefined, sendKey: false }), opts, false),
    listClients: listOf('clients'),
    listBikes: listOf('bikes'),
    listRepairs: listOf('repairs'),
    listLogs: listOf('logs'),
    get: (path, opts) => get(path, opts),
    platform: { get: (path, opts) => get(path, opts, true) },
    async close() {
      if (closed || options.dispatcher) return;
      closed = true;
      await dispatcher.close();
    },
  };
}
