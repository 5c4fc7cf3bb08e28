/**
 * From a method call to a running call: the tenant, the path (checked to stay inside
 * `{base_url}`), the query (encoded, credential names refused), the limits, and the parse
 * hook applied to the data. A call without a query or a parse hook does no work for them.
 */
import { type EndpointId, type TenantResource, TENANT_RESOURCES, platformPath, tenantResourcePath } from '../contract/index.js';
import { type ApiPromise, apiPromise, rejected } from './api-promise.js';
import { Call, type CallRuntime, executeCall } from './call.js';
import { parseFailure } from './error-factory.js';
import { type CallOptions, type GetOptions, type Limits, type ListOptions, type ParseMap, checkLimits, checkTenantOption } from './options.js';
import { checkSubPath, staysInside } from './path-guard.js';
import { type EncodedQuery, encodeQuery } from './query.js';
import { routeOf, sendsKey } from './routes.js';
import { type Check, Invalid, type Validator, checkItems, toCheck } from './validate.js';

export interface RequestSettings {
  readonly baseUrl: URL;
  readonly tenant: string | undefined;
  readonly limits: Limits;
  readonly parse: ParseMap | undefined;
}

/** A call's target, before it runs. */
export interface Target {
  readonly endpoint: EndpointId | undefined;
  readonly path: string;
  /** An already encoded query (a server's next link), used instead of `options.query`. */
  readonly encodedQuery?: EncodedQuery | undefined;
  readonly tenant: string | undefined;
  readonly sendKey: boolean;
}

const NO_OPTIONS: CallOptions = Object.freeze({});

/** A caller's path in an error message: quoted, and cut so a huge one cannot flood a log. */
function shown(path: unknown): string {
  return JSON.stringify(typeof path === 'string' && path.length > 120 ? `${path.slice(0, 119)}…` : path) ?? String(path);
}

/** Builds and starts the calls of one client; worked out once per client, not per call. */
export class Requests {
  readonly #rt: CallRuntime;
  readonly #settings: RequestSettings;
  /** The client's own tenant was checked at creation and its targets built then. */
  readonly #defaultTargets: Partial<Record<TenantResource, Target>> = {};
  readonly #resourceChecks: Partial<Record<TenantResource, Check>> = {};
  /** A call's own parse hook, turned into a check once per validator object. */
  readonly #checks = new WeakMap<object, Check>();

  constructor(rt: CallRuntime, settings: RequestSettings) {
    this.#rt = rt;
    this.#settings = settings;
    for (const resource of TENANT_RESOURCES) {
      if (settings.tenant !== undefined) this.#defaultTargets[resource] = targetOf(resource, settings.tenant);
      const validator = settings.parse?.[resource];
      if (validator !== undefined) this.#resourceChecks[resource] = toCheck(validator, `parse.${resource}`);
    }
  }

  /** The tenant target of a list call; throws a TypeError naming what to fix. */
  listTarget(resource: TenantResource, opts: ListOptions<unknown>): Target {
    const tenant = opts.tenant ?? this.#settings.tenant;
    const own = tenant === this.#settings.tenant ? this.#defaultTargets[resource] : undefined;
    if (own) return own;
    if (tenant === undefined) throw new TypeError(`${resource}: no tenant: pass { tenant } to the call or set the client's "tenant" option`);
    checkTenantOption('tenant', tenant);
    return targetOf(resource, tenant);
  }

  list(resource: TenantResource, opts: ListOptions<unknown> = NO_OPTIONS): ApiPromise<unknown> {
    try {
      const check = this.#listCheck(resource, opts);
      const call = this.#start(this.listTarget(resource, opts), opts);
      const data = executeCall(call);
      return apiPromise(check ? data.then((d) => listItems(call, d, check)) : data, call);
    } catch (error) {
      return rejected(error);
    }
  }

  /** One page of a list (for pagination): its checked items and the call they came in. */
  async page(resource: TenantResource, target: Target, opts: ListOptions<unknown>): Promise<{ items: readonly unknown[]; call: Call }> {
    const check = this.#listCheck(resource, opts);
    const call = this.#start(target, opts);
    const data = (await executeCall(call)) as readonly unknown[];
    return { items: check ? listItems(call, data, check) : data, call };
  }

  /** A call to one of the spec's fixed paths (`/`, `/docs`). */
  fixed(endpoint: EndpointId, path: string, opts: CallOptions = NO_OPTIONS): ApiPromise<unknown> {
    return this.#run({ endpoint, path, tenant: undefined, sendKey: sendsKey(endpoint) }, opts);
  }

  /** `get(path)`: any path inside `{base_url}`, classified by its route. */
  get(path: unknown, opts: GetOptions<unknown> = NO_OPTIONS): ApiPromise<unknown> {
    const check = checkSubPath(path);
    if (!check.ok) return rejected(new TypeError(`get: path ${shown(path)} ${check.reason}`));
    if (!staysInside(this.#settings.baseUrl, check.path)) return rejected(new TypeError(`get: path ${shown(path)} leaves {base_url}`));
    return this.#run({ ...routeOf(check.path), path: check.path }, opts);
  }

  /** `platform.get(sub)`: a path below `/platform/` that stays there. */
  platformGet(sub: unknown, opts: GetOptions<unknown> = NO_OPTIONS): ApiPromise<unknown> {
    const check = checkSubPath(sub);
    if (!check.ok || check.path === '/') {
      return rejected(new TypeError(`platform.get: path must be a sub-path below /platform/, got ${shown(sub)}${check.ok ? '' : `: it ${check.reason}`}`));
    }
    const path = platformPath(check.path);
    if (!staysInside(this.#settings.baseUrl, path, '/platform/')) return rejected(new TypeError(`platform.get: path ${shown(sub)} leaves /platform/`));
    return this.#run({ endpoint: 'platform', path, tenant: undefined, sendKey: true }, opts);
  }

  /** A call whose `parse` hook (if any) checks the whole `data`. */
  #run(target: Target, opts: GetOptions<unknown>): ApiPromise<unknown> {
    try {
      const check = opts.parse === undefined ? undefined : this.#checkOf(opts.parse);
      const call = this.#start(target, opts);
      const data = executeCall(call);
      return apiPromise(check ? data.then((d) => whole(call, d, check)) : data, call);
    } catch (error) {
      return rejected(error);
    }
  }

  /** Starts the call; throws a TypeError for a bad option before anything is sent. */
  #start(target: Target, opts: CallOptions): Call {
    const client = this.#settings.limits;
    const overrides = opts.maxRetries !== undefined || opts.attemptTimeoutMs !== undefined || opts.totalTimeoutMs !== undefined;
    if (overrides) checkLimits('call option ', opts);
    const query = target.encodedQuery ?? (opts.query === undefined ? undefined : encodeQuery(opts.query, [this.#rt.key]));
    return new Call(this.#rt, {
      endpoint: target.endpoint,
      path: target.path,
      query,
      tenant: target.tenant,
      sendKey: target.sendKey,
      signal: opts.signal,
      limits: overrides
        ? {
            maxRetries: opts.maxRetries ?? client.maxRetries,
            attemptTimeoutMs: opts.attemptTimeoutMs ?? client.attemptTimeoutMs,
            totalTimeoutMs: opts.totalTimeoutMs ?? client.totalTimeoutMs,
          }
        : client,
    });
  }

  /** A list call's check: the call's own `parse`, else the client's for the resource. */
  #listCheck(resource: TenantResource, opts: ListOptions<unknown>): Check | undefined {
    return opts.parse === undefined ? this.#resourceChecks[resource] : this.#checkOf(opts.parse);
  }

  #checkOf(validator: Validator<unknown>): Check {
    let check = this.#checks.get(validator);
    if (!check) this.#checks.set(validator, (check = toCheck(validator, 'parse')));
    return check;
  }
}

function targetOf(resource: TenantResource, tenant: string): Target {
  return { endpoint: resource, path: tenantResourcePath(tenant, resource), tenant, sendKey: true };
}

function listItems(call: Call, data: unknown, check: Check): unknown[] {
  // The contract's envelope check already refused a non-array `data` for list endpoints.
  const result = checkItems(data as readonly unknown[], check);
  if ('items' in result) return result.items;
  throw parseFailure(call.context(), call.response, result.index, result.issue);
}

function whole(call: Call, data: unknown, check: Check): unknown {
  const result = check(data);
  if (result instanceof Invalid) throw parseFailure(call.context(), call.response, undefined, result.issue);
  return result;
}
