/** `createClient`: options are checked before anything is sent (a TypeError naming the option). */
import { X509Certificate } from 'node:crypto';
import { type Dispatcher, EnvHttpProxyAgent } from 'undici';
import type { AuthScheme, TenantResource } from '../contract/index.js';
import {
  SECRET_HEADERS,
  TENANT_RESOURCES,
  boundText,
  checkBaseUrl,
  isAuthScheme,
  isTenantResource,
  platformPath,
  tenantResourcePath,
  validateTenantSlug,
} from '../contract/index.js';
import { ApiKey, redactSecrets } from './api-key.js';
import { type AttemptResponse, USER_AGENT, randomHex } from './attempt.js';
import { Call, type Limits, type Plan, type Runtime } from './call.js';
import { type LogLevel, type Logger, clientLog, resolveLogLevel } from './logger.js';
import { checkSubPath, routeOf, staysInside } from './paths.js';
import { type RateLimitInfo, createRateLimitGate, parseRateLimitInfo } from './retry.js';

/** Each option and its default: README.md beside this file. */
export interface ClientOptions extends Partial<Limits> {
  readonly baseUrl: string;
  /** An `ApiKey`, or the raw value (wrapped as alias `api-key`). */
  readonly apiKey: ApiKey | string;
  readonly authScheme?: AuthScheme;
  readonly tenant?: string;
  readonly maxRetryAfterMs?: number;
  readonly ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** Your app's name and version, put before ours in the `User-Agent`, e.g. `shop-sync/1.4`. */
  readonly userAgent?: string;
  /** `false`: never through `HTTPS_PROXY`/`HTTP_PROXY`. */
  readonly proxy?: boolean;
  readonly dispatcher?: Dispatcher;
  readonly logger?: Logger;
  readonly logLevel?: LogLevel;
}

export interface CallOptions extends Partial<Limits> {
  readonly signal?: AbortSignal;
  /** Continue your trace: its trace id goes with every attempt (W3C `traceparent`). */
  readonly traceparent?: string;
}

export interface ListOptions extends CallOptions {
  readonly tenant?: string;
}

/** Credential and cookie headers left out, the key scrubbed. */
export interface ApiResponse {
  readonly status: number;
  readonly traceId: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly requestId: string | undefined;
  readonly rateLimit: RateLimitInfo;
  readonly method: 'GET';
  readonly path: string;
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
  /** A tenant resource's list: `list('repairs')`, one for each name in `TENANT_RESOURCES`. */
  list(resource: TenantResource, options?: ListOptions): ApiPromise<readonly unknown[]>;
  /** Any path inside `{base_url}`, a query after `?` allowed: `get('/tenants/x/repairs/17')`. */
  get(path: string, options?: CallOptions): ApiPromise<unknown>;
  readonly platform: { get(path: string, options?: CallOptions): ApiPromise<unknown> };
  /** Ends a 429's pause of every call now; the next 429 pauses again. */
  clearRateLimitPause(): void;
  close(): Promise<void>;
}

type Target = Pick<Plan, 'endpoint' | 'path' | 'query' | 'tenant' | 'sendKey'>;
type Budget = Limits & { readonly maxRetryAfterMs: number };

const DEFAULTS: Budget = {
  maxRetries: 3,
  attemptTimeoutMs: 15_000,
  totalTimeoutMs: 60_000,
  maxRetryAfterMs: 30_000,
};
const TRACEPARENT = /^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const HIDDEN_HEADERS = new Set([...SECRET_HEADERS, 'proxy-authorization', 'set-cookie', 'cookie']);

const BUDGET_NAMES = Object.keys(DEFAULTS) as Array<keyof Budget>;

/** `defaults`, with what `given` sets, checked. */
function budget<T extends Partial<Budget>>(prefix: string, given: Partial<Budget>, defaults: T): T {
  let out = defaults;
  for (const name of BUDGET_NAMES) {
    if (!(name in defaults)) continue;
    const value = given[name];
    if (value === undefined) continue;
    const min = name.endsWith('TimeoutMs') ? 1 : 0;
    if (!(Number.isInteger(value) && value >= min))
      throw new TypeError(`option "${prefix}${name}" must be an integer >= ${min}, got ${value}`);
    out = { ...out, [name]: value };
  }
  return out;
}

function slug(tenant: string): string {
  const check = validateTenantSlug(tenant);
  if (!check.ok) throw new TypeError(`option "tenant" ${JSON.stringify(tenant)} ${check.reason}`);
  return tenant;
}

const target = (path: string, query?: string): Target => ({ ...routeOf(path), path, query });
const dataOf = (res: AttemptResponse): unknown => (res.classification as { data: unknown }).data;

function toApiKey(value: unknown): ApiKey {
  if (value instanceof ApiKey) return value;
  if (typeof value === 'string') return new ApiKey(value);
  // An ApiKey of another copy of this folder still works: it has reveal() and alias.
  const other = value as Partial<ApiKey> | undefined;
  if (typeof other?.reveal === 'function') return new ApiKey(other.reveal(), other.alias);
  throw new TypeError('option "apiKey" is required (an ApiKey or the key string)');
}

/** `host:port` of the proxy `url` goes through (read as undici's `EnvHttpProxyAgent` does). */
export function proxyFor(
  url: URL,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  const https = url.protocol === 'https:';
  const raw =
    (https ? (env['https_proxy'] ?? env['HTTPS_PROXY']) : undefined) ??
    env['http_proxy'] ??
    env['HTTP_PROXY'];
  const noProxy = env['no_proxy'] ?? env['NO_PROXY'] ?? '';
  if (!raw || noProxy.trim() === '*') return undefined;
  const host = url.hostname.toLowerCase();
  const port = Number(url.port) || (https ? 443 : 80);
  for (const entry of noProxy.split(/[,\s]/).filter(Boolean)) {
    const [, name = entry, entryPort] = /^(.+):(\d+)$/.exec(entry) ?? [];
    const bare = name.replace(/^\*?\./, '').toLowerCase();
    if ((!entryPort || Number(entryPort) === port) && (host === bare || host.endsWith(`.${bare}`)))
      return undefined;
  }
  try {
    return new URL(raw).host;
  } catch {
    return 'an unparsable proxy address';
  }
}

/**
 * The client's own connections, through the environment's proxy unless `proxy: false` (over https a
 * proxy only tunnels: it never sees the key). A `ca` is parsed now, so a wrong file fails here.
 */
function ownAgent(options: ClientOptions, url: URL): Dispatcher {
  const timeout = options.attemptTimeoutMs ?? DEFAULTS.attemptTimeoutMs;
  // NO_PROXY read once here: undici would read process.env on every request.
  const env = process.env;
  const direct =
    options.proxy === false
      ? { httpProxy: '', httpsProxy: '', noProxy: '' }
      : { noProxy: env['no_proxy'] ?? env['NO_PROXY'] ?? '' };
  if (options.ca === undefined) return new EnvHttpProxyAgent({ ...direct, connect: { timeout } });
  if (url.protocol !== 'https:')
    throw new TypeError(`option "ca" needs an https baseUrl, got ${url.protocol}//${url.host}`);
  const text = (Array.isArray(options.ca) ? options.ca : [options.ca]).map(String).join('\n');
  const ca = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  // Never echo the text: a private key pasted by mistake must not reach a log through this message.
  if (ca.length === 0 && /PRIVATE KEY-----/.test(text))
    throw new TypeError('option "ca" holds a private key, not a certificate');
  if (ca.length === 0)
    throw new TypeError('option "ca" holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
  ca.forEach((pem, i) => {
    try {
      new X509Certificate(pem);
    } catch {
      throw new TypeError(
        `option "ca": certificate ${i + 1} of ${ca.length} does not parse as X.509`,
      );
    }
  });
  return new EnvHttpProxyAgent({ ...direct, connect: { timeout, ca }, requestTls: { ca } });
}

/** A caller's path in a message: quoted and cut, so a huge one cannot flood a log. */
const shown = (path: unknown): string =>
  typeof path === 'string' ? JSON.stringify(boundText(path, 120)) : String(path);

export function createClient(options: ClientOptions): RepairServiceClient {
  if (typeof options?.baseUrl !== 'string' || options.baseUrl === '') {
    throw new TypeError('option "baseUrl" is required (the address ending in /api/v1)');
  }
  const base = checkBaseUrl(options.baseUrl);
  if (!base.ok) throw new TypeError(`option "baseUrl" ${base.reason}`);
  const { url } = base;
  const { authScheme = 'bearer', dispatcher: theirs } = options;
  if (!isAuthScheme(authScheme))
    throw new TypeError(
      `option "authScheme" must be "bearer" or "x-api-key", got ${JSON.stringify(authScheme)}`,
    );
  const tenant = options.tenant === undefined ? undefined : slug(options.tenant);
  const { maxRetryAfterMs, ...limits } = budget('', options, DEFAULTS);
  if (options.ca !== undefined && theirs !== undefined) {
    const where = 'with "dispatcher" given, set it on that dispatcher';
    throw new TypeError(`option "ca" configures the client's own connections; ${where}`);
  }
  const key = toApiKey(options.apiKey);
  const dispatcher = theirs ?? ownAgent(options, url);
  const userAgent =
    options.userAgent === undefined ? undefined : `${options.userAgent} ${USER_AGENT}`;
  const log = clientLog(options.logger, resolveLogLevel(options.logLevel), key);
  const gate = createRateLimitGate();
  const rt: Runtime = {
    dispatcher,
    baseUrl: options.baseUrl,
    host: url.host,
    key,
    authScheme,
    maxRetryAfterMs,
    gate,
    userAgent,
    log,
  };
  const proxy = theirs || options.proxy === false ? undefined : proxyFor(url);
  if (proxy !== undefined && url.protocol === 'http:') {
    const why = `is plain http and goes through the proxy ${proxy}, which sees the API key`;
    log.warn(`repair-service: ${url.host} ${why}; use https, or NO_PROXY=${url.hostname}`);
  }

  function respond(res: AttemptResponse, run: Call): ApiResponse {
    const headers: Record<string, string> = {};
    // A public call (/docs) went without the key, so its headers were not scrubbed of it yet.
    for (const name in res.headers)
      if (!HIDDEN_HEADERS.has(name)) headers[name] = redactSecrets(res.headers[name]!, [key]);
    const { status, traceId, requestId } = res;
    const { path, query } = run.plan;
    const rateLimit = parseRateLimitInfo(res.headers, Date.now());
    return {
      status,
      traceId,
      headers,
      requestId,
      rateLimit,
      method: 'GET',
      path,
      query,
      attempts: run.attempts,
    };
  }

  /** The call's options and target checked (a TypeError), before anything is sent. */
  function start(where: () => Target, opts: CallOptions): Call {
    const callLimits = budget('call option ', opts, limits);
    const { endpoint, path, query, tenant: of, sendKey } = where();
    if (query?.includes(key.reveal()))
      throw new TypeError(`${path}: the query holds the API key: a key never goes in a URL`);
    const traceId =
      opts.traceparent === undefined ? randomHex(16) : TRACEPARENT.exec(opts.traceparent)?.[1];
    if (traceId === undefined)
      throw new TypeError(
        'option "traceparent" must be a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>)',
      );
    const { signal } = opts;
    const plan = {
      endpoint,
      path,
      query,
      tenant: of,
      sendKey,
      signal,
      limits: callLimits,
      traceId,
    };
    return new Call(rt, plan);
  }

  function call<T>(where: () => Target, opts: CallOptions): ApiPromise<T> {
    let run: Call | undefined;
    let ran: Promise<AttemptResponse>;
    try {
      run = start(where, opts);
      ran = run.run();
    } catch (error) {
      ran = Promise.reject(error);
    }
    const promise = ran.then(dataOf) as ApiPromise<T>;
    // Through `promise`: a caller of withResponse() alone must leave no rejection unhandled.
    promise.withResponse = () =>
      promise
        .then(() => ran)
        .then((res) => ({ data: dataOf(res) as T, response: respond(res, run!) }));
    return promise;
  }

  const list = (resource: TenantResource, opts: ListOptions = {}): ApiPromise<readonly unknown[]> =>
    call(() => {
      if (!isTenantResource(resource))
        throw new TypeError(
          `list: ${shown(resource)} is not one of ${TENANT_RESOURCES.join(', ')}`,
        );
      const of = opts.tenant === undefined ? tenant : slug(opts.tenant);
      if (of === undefined)
        throw new TypeError(`${resource}: no tenant: pass { tenant } or set the client's "tenant"`);
      const path = tenantResourcePath(of, resource);
      return { endpoint: resource, path, query: undefined, tenant: of, sendKey: true };
    }, opts);

  const get =
    (platform: boolean) =>
    (raw: string, opts: CallOptions = {}): ApiPromise<unknown> =>
      call(() => {
        const [name, inside] = platform ? ['platform.get', '/platform/'] : ['get', '{base_url}'];
        const check = checkSubPath(raw, true);
        if (!check.ok) throw new TypeError(`${name}: path ${shown(raw)} ${check.reason}`);
        if (platform && check.path === '/')
          throw new TypeError(`${name}: path ${shown(raw)} must be a sub-path below /platform/`);
        const path = platform ? platformPath(check.path) : check.path;
        if (!staysInside(url, path, platform ? '/platform/' : '/'))
          throw new TypeError(`${name}: path ${shown(raw)} leaves ${inside}`);
        return target(path, check.query);
      }, opts);

  let closed = false;
  return {
    baseUrl: options.baseUrl,
    keyAlias: key.alias,
    tenant,
    index: (opts = {}) => call(() => target('/'), opts),
    docs: (opts = {}) => call(() => target('/docs'), opts),
    list,
    get: get(false),
    platform: { get: get(true) },
    clearRateLimitPause: () => gate.clear(),
    async close() {
      if (closed || theirs) return;
      closed = true;
      await dispatcher.close();
    },
  };
}
