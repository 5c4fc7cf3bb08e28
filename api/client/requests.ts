/**
 * From a method call to a running call: the tenant, the path (checked to stay inside
 * `{base_url}`), the query (encoded, credential names refused), the limits, and the parse
 * hook applied to the data. A call without a query or a parse hook does no work for them.
 */
import { type EndpointId, type TenantResource, TENANT_RESOURCES, platformPath, tenantResourcePath } from '../contract/index.js';
import { type ApiPromise, apiPromise, rejected } from './api-promise.js';
import { Call, type CallRuntime, executeCall } from './call.js';
import { parseFailure } from './error-factory.js';
import { type CallOptions, type Limits, type ListOptions, type ParseMap, checkLimits, checkTenantOption } from './options.js';
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

export function createRequests(rt: CallRuntime, settings: RequestSettings) {
  const { tenant: defaultTenant, limits: clientLimits } = settings;
  // Worked out once, not per call.
  const targetOf = (resource: TenantResource, tenant: string): Target => ({ endpoint: resource, path: tenantResourcePath(tenant, resource), tenant, sendKey: true });
  const defaultTargets: Partial<Record<TenantResource, Target>> = {};
  if (defaultTenant !== undefined) for (const resource of TENANT_RESOURCES) defaultTargets[resource] = targetOf(resource, defaultTenant);
  const resourceChecks: Partial<Record<TenantResource, Check>> = {};
  for (const resource of TENANT_RESOURCES) {
    const validator = settings.parse?.[resource];
    if (validator !== undefined) resourceChecks[resource] = toCheck(validator, `parse.${resource}`);
  }
  const checks = new WeakMap<object, Check>();
  const checkOf = (validator: Validator<unknown>): Check => {
    let check = checks.get(validator);
    if (!check) checks.set(validator, (check = toCheck(validator, 'parse')));
    return check;
  };

  /** Starts the call; throws a TypeError for a bad option before anything is sent. */
  const start = (target: Target, opts: CallOptions): Call => {
    const overrides = opts.maxRetries !== undefined || opts.attemptTimeoutMs !== undefined || opts.totalTimeoutMs !== undefined;
    if (overrides) checkLimits('call option ', opts);
    const query = target.encodedQuery ?? (opts.query === undefined ? undefined : encodeQuery(opts.query, [rt.key]));
    return new Call(rt, {
      endpoint: target.endpoint,
      path: target.path,
      query,
      tenant: target.tenant,
      sendKey: target.sendKey,
      signal: opts.signal,
      limits: overrides
        ? {
            maxRetries: opts.maxRetries ?? clientLimits.maxRetries,
            attemptTimeoutMs: opts.attemptTimeoutMs ?? clientLimits.attemptTimeoutMs,
            totalTimeoutMs: opts.totalTimeoutMs ?? clientLimits.totalTimeoutMs,
          }
        : clientLimits,
    });
  };

  const listItems = (call: Call, data: unknown, check: Check): unknown[] => {
    // The contract's envelope check already refused a non-array `data` for list endpoints.
    const result = checkItems(data as readonly unknown[], check);
    if ('items' in result) return result.items;
    throw parseFailure(call.context(), call.response, result.index, result.issue);
  };

  const whole = (call: Call, data: unknown, check: Check): unknown => {
    const result = check(data);
    if (result instanceof Invalid) throw parseFailure(call.context(), call.response, undefined, result.issue);
    return result;
  };

  /** The tenant target of a list call; throws a TypeError naming what to fix. */
  const listTarget = (resource: TenantResource, opts: ListOptions<unknown>): Target => {
    const tenant = opts.tenant ?? defaultTenant;
    // The client's own tenant was checked at creation and its targets built then.
    const own = tenant === defaultTenant ? defaultTargets[resource] : undefined;
    if (own) return own;
    if (tenant === undefined) throw new TypeError(`${resource}: no tenant: pass { tenant } to the call or set the client's "tenant" option`);
    checkTenantOption('tenant', tenant);
    return targetOf(resource, tenant);
  };

  /** A list call's check: the call's own `parse`, else the client's for the resource. */
  const listCheck = (resource: TenantResource, opts: ListOptions<unknown>): Check | undefined =>
    opts.parse === undefined ? resourceChecks[resource] : checkOf(opts.parse);

  /** One page of a list (for pagination): its checked items and the call they came in. */
  const page = async (resource: TenantResource, target: Target, opts: ListOptions<unknown>): Promise<{ items: readonly unknown[]; call: Call }> => {
    const check = listCheck(resource, opts);
    const call = start(target, opts);
    const data = (await executeCall(call)) as readonly unknown[];
    return { items: check ? listItems(call, data, check) : data, call };
  };

  const list = (resource: TenantResource, opts: ListOptions<unknown> = NO_OPTIONS): ApiPromise<unknown> => {
    try {
      const check = listCheck(resource, opts);
      const call = start(listTarget(resource, opts), opts);
      const data = executeCall(call);
      return apiPromise(check ? data.then((d) => listItems(call, d, check)) : data, call);
    } catch (error) {
      return rejected(error);
    }
  };

  const run = (target: Target, opts: CallOptions & { readonly parse?: Validator<unknown> | undefined }): ApiPromise<unknown> => {
    try {
      const check = opts.parse === undefined ? undefined : checkOf(opts.parse);
      const call = start(target, opts);
      const data = executeCall(call);
      return apiPromise(check ? data.then((d) => whole(call, d, check)) : data, call);
    } catch (error) {
      return rejected(error);
    }
  };

  const fixed = (endpoint: EndpointId, path: string, opts: CallOptions = NO_OPTIONS): ApiPromise<unknown> =>
    run({ endpoint, path, tenant: undefined, sendKey: sendsKey(endpoint) }, opts);

  /** `get(path)`: any path inside `{base_url}`; `where` names the method in errors. */
  const get = (path: unknown, opts: CallOptions = NO_OPTIONS, where = 'get'): ApiPromise<unknown> => {
    const check = checkSubPath(path);
    if (!check.ok) return rejected(new TypeError(`${where}: path ${JSON.stringify(path)} ${check.reason}`));
    if (!staysInside(settings.baseUrl, check.path)) return rejected(new TypeError(`${where}: path ${JSON.stringify(path)} leaves {base_url}`));
    const route = routeOf(check.path);
    return run({ ...route, path: check.path }, opts);
  };

  const platformGet = (sub: unknown, opts: CallOptions = NO_OPTIONS): ApiPromise<unknown> => {
    const check = checkSubPath(sub);
    if (!check.ok || check.path === '/') return rejected(new TypeError(`platform.get: path must be a sub-path below /platform/, got ${JSON.stringify(sub)}${check.ok ? '' : `: it ${check.reason}`}`));
    const path = platformPath(check.path);
    if (!staysInside(settings.baseUrl, path, '/platform/')) return rejected(new TypeError(`platform.get: path ${JSON.stringify(sub)} leaves /platform/`));
    return run({ endpoint: 'platform', path, tenant: undefined, sendKey: true }, opts);
  };

  return { list, listTarget, page, fixed, get, platformGet };
}

export type Requests = ReturnType<typeof createRequests>;
