/**
 * `createClient`: the typed API v1 client. Each method names an endpoint of the contract; a call's
 * options are checked before anything is sent (a TypeError naming the option), then `call.ts`
 * runs it. Every method returns an `ApiPromise`: a Promise of `data` with `withResponse()`.
 */
import { X509Certificate, randomUUID } from 'node:crypto';
import { type Dispatcher, EnvHttpProxyAgent } from 'undici';
import {
  type AuthScheme,
  SECRET_HEADERS,
  type TenantResource,
  checkBaseUrl,
  isAuthScheme,
  platformPath,
  tenantResourcePath,
  validateTenantSlug,
} from '../contract/index.js';
import { ApiKey, redactSecrets } from './api-key.js';
import { USER_AGENT } from './attempt.js';
import { Call, type Limits, type Plan, type Runtime } from './call.js';
import { type LogLevel, type Logger, clientLog, resolveLogLevel } from './logger.js';
import { type Validator, toCheck } from './parse.js';
import { checkSubPath, routeOf, staysInside } from './paths.js';
import { proxyFor } from './proxy.js';
import { type RateLimitInfo, parseRateLimitInfo } from './retry-hints.js';
import { createRateLimitGate } from './retry-policy.js';

export interface ClientOptions extends Partial<Limits> {
  /** `{base_url}`, ending in `/api/v1`: http(s), no credentials or query. */
  readonly baseUrl: string;
  /** An `ApiKey`, or the raw value (wrapped as alias `api-key`). */
  readonly apiKey: ApiKey | string;
  /** `bearer` (the default) or `x-api-key`. */
  readonly authScheme?: AuthScheme;
  /** The tenant of the list methods when a call names none. */
  readonly tenant?: string;
  /** A server wait longer than this fails at once (default 30 000). */
  readonly maxRetryAfterMs?: number;
  /** PEM CA certificate(s) the client's own connections trust instead of Node's (https only). */
  readonly ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** Your app's name and version, put before ours in the `User-Agent`, e.g. `shop-sync/1.4`. */
  readonly userAgent?: string;
  /** `false`: never through `HTTPS_PROXY`/`HTTP_PROXY` (honoured by default, `NO_PROXY` too). */
  readonly proxy?: boolean;
  /** Your undici dispatcher (a MockAgent in tests); you close it. */
  readonly dispatcher?: Dispatcher;
  readonly logger?: Logger;
  readonly logLevel?: LogLevel;
}

export interface CallOptions extends Partial<Limits> {
  readonly signal?: AbortSignal;
  /** Continue your trace: its trace id goes with every attempt (W3C `traceparent`). */
  readonly traceparent?: string;
}

export interface ListOptions<T = unknown> extends CallOptions {
  readonly tenant?: string;
  /** Checks (and may transform) every item. */
  readonly parse?: Validator<T>;
}

export interface GetOptions<T = unknown> extends CallOptions {
  /** Checks the whole `data`. */
  readonly parse?: Validator<T>;
}

/** The response around the data: credential and cookie headers left out, the key scrubbed. */
export interface ApiResponse {
  readonly status: number;
  readonly traceId: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly requestId: string | undefined;
  readonly rateLimit: RateLimitInfo;
  readonly method: 'GET';
  readonly path: string;
  /** The query sent (encoded, without `?`). */
  readonly query: string | undefined;
  readonly attempts: number;
}

export interface ApiPromise<T> extends Promise<T> {
  withResponse(): Promise<{ readonly data: T; readonly response: ApiResponse }>;
}

export interface RepairServiceClient {
  readonly baseUrl: string;
  readonly keyAlias: string;
  readonly tenant: string | undefined;
  index(options?: CallOptions): ApiPromise<unknown>;
  /** Public: sent without the key. */
  docs(options?: CallOptions): ApiPromise<unknown>;
  listClients<T = unknown>(options?: ListOptions<T>): ApiPromise<readonly T[]>;
  listBikes<T = unknown>(options?: ListOptions<T>): ApiPromise<readonly T[]>;
  listRepairs<T = unknown>(options?: ListOptions<T>): ApiPromise<readonly T[]>;
  listLogs<T = unknown>(options?: ListOptions<T>): ApiPromise<readonly T[]>;
  /** Any path inside `{base_url}`, a query after `?` allowed: `get('/tenants/x/repairs/17')`. */
  get<T = unknown>(path: string, options?: GetOptions<T>): ApiPromise<T>;
  readonly platform: { get<T = unknown>(path: string, options?: GetOptions<T>): ApiPromise<T> };
  /** Closes the client's own connection pool. */
  close(): Promise<void>;
}

type Target = Pick<Plan, 'endpoint' | 'path' | 'query' | 'tenant' | 'sendKey'>;

const DEFAULTS: Limits & { maxRetryAfterMs: number } = { maxRetries: 3, attemptTimeoutMs: 15_000, totalTimeoutMs: 60_000, maxRetryAfterMs: 30_000 };
const TRACEPARENT = /^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const HIDDEN_HEADERS = new Set([...SECRET_HEADERS, 'proxy-authorization', 'set-cookie', 'cookie']);

function limits(prefix: string, o: Partial<Limits & { maxRetryAfterMs: number }>): void {
  for (const [name, min] of [['maxRetries', 0], ['attemptTimeoutMs', 1], ['totalTimeoutMs', 1], ['maxRetryAfterMs', 0]] as const) {
    const value = o[name];
    if (value !== undefined && !(Number.isInteger(value) && value >= min)) throw new TypeError(`option "${prefix}${name}" must be an integer >= ${min}, got ${String(value)}`);
  }
}

function slug(tenant: string): string {
  const check = validateTenantSlug(tenant);
  if (!check.ok) throw new TypeError(`option "tenant" ${JSON.stringify(tenant)} ${check.reason}`);
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

/**
 * The client's own connections, through the environment's proxy unless `proxy: false` (over https
 * a proxy only tunnels: it never sees the key). A `ca` is parsed now, so a wrong file fails here.
 */
function ownAgent(options: ClientOptions, url: URL): Dispatcher {
  const timeout = options.attemptTimeoutMs ?? DEFAULTS.attemptTimeoutMs;
  const direct = options.proxy === false ? { httpProxy: '', httpsProxy: '', noProxy: '' } : {};
  if (options.ca === undefined) return new EnvHttpProxyAgent({ ...direct, connect: { timeout } });
  if (url.protocol !== 'https:') throw new TypeError(`option "ca" needs an https baseUrl, got ${url.protocol}//${url.host}`);
  const text = (Array.isArray(options.ca) ? options.ca : [options.ca]).map(String).join('\n');
  const ca = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  // Never echo the text: a private key pasted by mistake must not reach a log through this message.
  if (ca.length === 0) throw new TypeError(`option "ca" ${/PRIVATE KEY-----/.test(text) ? 'holds a private key, not a certificate' : 'holds no PEM certificate (-----BEGIN CERTIFICATE-----)'}`);
  ca.forEach((pem, i) => {
    try {
      new X509Certificate(pem);
    } catch {
      throw new TypeError(`option "ca": certificate ${i + 1} of ${ca.length} does not parse as X.509`);
    }
  });
  return new EnvHttpProxyAgent({ ...direct, connect: { timeout, ca }, requestTls: { ca } });
}

/** A caller's path in a message: quoted and cut, so a huge one cannot flood a log. */
const shown = (path: unknown): string => JSON.stringify(typeof path === 'string' && path.length > 120 ? `${path.slice(0, 119)}…` : path) ?? String(path);

export function createClient(options: ClientOptions): RepairServiceClient {
  if (typeof options?.baseUrl !== 'string' || options.baseUrl === '') throw new TypeError('option "baseUrl" is required (the address ending in /api/v1)');
  const base = checkBaseUrl(options.baseUrl);
  if (!base.ok) throw new TypeError(`option "baseUrl" ${base.reason}`);
  const { url } = base;
  if (options.authScheme !== undefined && !isAuthScheme(options.authScheme)) throw new TypeError(`option "authScheme" must be "bearer" or "x-api-key", got ${JSON.stringify(options.authScheme)}`);
  const tenant = options.tenant === undefined ? undefined : slug(options.tenant);
  limits('', options);
  if (options.ca !== undefined && options.dispatcher !== undefined) throw new TypeError('option "ca" configures the client\'s own connections; with "dispatcher" given, set it on that dispatcher');
  const key = toApiKey(options.apiKey);
  const dispatcher = options.dispatcher ?? ownAgent(options, url);
  const clientLimits: Limits = { maxRetries: options.maxRetries ?? DEFAULTS.maxRetries, attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULTS.attemptTimeoutMs, totalTimeoutMs: options.totalTimeoutMs ?? DEFAULTS.totalTimeoutMs };
  const rt: Runtime = {
    dispatcher,
    baseUrl: options.baseUrl,
    host: url.host,
    key,
    authScheme: options.authScheme ?? 'bearer',
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs,
    gate: createRateLimitGate(),
    userAgent: options.userAgent === undefined ? undefined : `${options.userAgent} ${USER_AGENT}`,
    log: clientLog(options.logger, resolveLogLevel(options.logLevel), key),
  };
  const proxy = options.dispatcher || options.proxy === false ? undefined : proxyFor(url);
  if (proxy !== undefined && url.protocol === 'http:') {
    rt.log.warn(`repair-service: ${url.host} is plain http and goes through the proxy ${proxy}, which sees the API key; use https, or NO_PROXY=${url.hostname}`);
  }

  function respond(call: Call): ApiResponse {
    const res = call.response!;
    const headers: Record<string, string> = {};
    // A public call (/docs) went without the key, so its headers were not scrubbed of it yet.
    for (const name in res.headers) if (!HIDDEN_HEADERS.has(name)) headers[name] = redactSecrets(res.headers[name]!, [key]);
    const { path, query } = call.plan;
    return { status: res.status, traceId: res.traceId, headers, requestId: res.requestId, rateLimit: parseRateLimitInfo(res.headers, Date.now()), method: 'GET', path, query, attempts: call.attempts };
  }

  /** Builds the call (a bad option rejects here, before anything is sent), runs it, checks its data. */
  function call<T>(target: () => Target, opts: CallOptions & { readonly parse?: Validator<unknown> }, list: boolean): ApiPromise<T> {
    let running: Call | undefined;
    const promise = (async () => {
      const overrides = opts.maxRetries !== undefined || opts.attemptTimeoutMs !== undefined || opts.totalTimeoutMs !== undefined;
      if (overrides) limits('call option ', opts);
      const check = opts.parse === undefined ? undefined : toCheck(opts.parse, 'parse');
      const { maxRetries = clientLimits.maxRetries, attemptTimeoutMs = clientLimits.attemptTimeoutMs, totalTimeoutMs = clientLimits.totalTimeoutMs } = opts;
      const lim = overrides ? { maxRetries, attemptTimeoutMs, totalTimeoutMs } : clientLimits;
      const { endpoint, path, query, tenant: slugOf, sendKey } = target();
      if (query?.includes(key.reveal())) throw new TypeError(`${path}: the query holds the API key: a key never goes in a URL`);
      const traceId = opts.traceparent === undefined ? randomUUID().replace(/-/g, '') : TRACEPARENT.exec(opts.traceparent)?.[1];
      if (traceId === undefined) throw new TypeError('option "traceparent" must be a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>)');
      running = new Call(rt, { endpoint, path, query, tenant: slugOf, sendKey, signal: opts.signal, limits: lim, traceId });
      const data = await running.run();
      if (!check) return data as T;
      const items = list ? (data as readonly unknown[]) : [data];
      const out = items.map((item, i) => {
        const checked = check(item);
        if (checked.ok) return checked.value;
        const issue = checked.issue;
        const { status, requestId } = running!.response!;
        throw running!.error({ kind: 'parse_failed', message: `GET ${path}: ${list ? `item ${i}` : 'data'} failed the parse hook: ${issue}`, status, requestId, index: list ? i : undefined, issue });
      });
      return (list ? out : out[0]) as T;
    })() as ApiPromise<T>;
    promise.withResponse = () => promise.then((data) => ({ data, response: respond(running!) }));
    return promise;
  }

  const listOf = (resource: TenantResource) => {
    const target = (slugOf: string): Target => ({ endpoint: resource, path: tenantResourcePath(slug(slugOf), resource), query: undefined, tenant: slugOf, sendKey: true });
    // The client's own tenant was checked once, here: a call without `tenant` reuses its target.
    const own = tenant === undefined ? undefined : target(tenant);
    return <T>(opts: ListOptions<T> = {}): ApiPromise<readonly T[]> =>
      call(
        () => {
          if (opts.tenant === undefined && own) return own;
          if ((opts.tenant ?? tenant) === undefined) throw new TypeError(`${resource}: no tenant: pass { tenant } to the call or set the client's "tenant" option`);
          return target((opts.tenant ?? tenant)!);
        },
        opts,
        true,
      );
  };

  const get =
    (platform: boolean) =>
    <T>(raw: string, opts: GetOptions<T> = {}): ApiPromise<T> =>
      call(
        () => {
          const [name, inside] = platform ? ['platform.get', '/platform/'] : ['get', '{base_url}'];
          const check = checkSubPath(raw, true);
          if (!check.ok || (platform && check.path === '/')) throw new TypeError(`${name}: path ${shown(raw)} ${check.ok ? 'must be a sub-path below /platform/' : check.reason}`);
          const path = platform ? platformPath(check.path) : check.path;
          if (!staysInside(url, path, platform ? '/platform/' : '/')) throw new TypeError(`${name}: path ${shown(raw)} leaves ${inside}`);
          return { ...routeOf(path), path, query: check.query };
        },
        opts,
        false,
      );

  let closed = false;
  return {
    baseUrl: options.baseUrl,
    keyAlias: key.alias,
    tenant,
    index: (opts = {}) => call(() => ({ endpoint: 'index', path: '/', query: undefined, tenant: undefined, sendKey: true }), opts, false),
    docs: (opts = {}) => call(() => ({ endpoint: 'docs', path: '/docs', query: undefined, tenant: undefined, sendKey: false }), opts, false),
    listClients: listOf('clients'),
    listBikes: listOf('bikes'),
    listRepairs: listOf('repairs'),
    listLogs: listOf('logs'),
    get: get(false),
    platform: { get: get(true) },
    async close() {
      if (closed || options.dispatcher) return;
      closed = true;
      await dispatcher.close();
    },
  };
}
