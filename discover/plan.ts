/**
 * The GET requests discovery may make, and their order. Every call is one attempt, sent one
 * after another; the plan is capped so an ops engineer knows the most it will ever send. Calls
 * and records are the shape `repairmon probe` records too (`diagnose/observations.ts`).
 */
import { type AuthScheme, TENANT_RESOURCES, endpointPath, platformPath } from '../api/contract/index.js';
import { type Call } from '../diagnose/index.js';
import { MAX_PLATFORM_CALLS } from '../diagnose/index.js';

/**
 * The most requests one run sends: /docs, / without a key, / with the key, the platform
 * sub-paths, the four resources of --tenant, and a tenant path with a made-up key and with none.
 */
export const MAX_REQUESTS = 3 + MAX_PLATFORM_CALLS + TENANT_RESOURCES.length + 2;

/**
 * ASSUMPTION: with no --tenant and no listing to take one from, the made-up-key and no-key
 * calls read this slug. Lowercase letters only, so it is well formed under every slug style
 * an API may enforce and reaches its key check; the spec says tenant paths need a key, known
 * tenant or not.
 */
export const PLACEHOLDER_TENANT = 'repairmondiscovery';

export const INDEX_CALL: Call = { id: 'index', endpoint: 'index', path: endpointPath('index'), auth: 'none' };

/** Whether a call presents the user's key (not none, not a made-up one). */
export function presentsKey(call: Call): boolean {
  return call.auth !== 'none' && call.madeUpKey !== true;
}

/** A sub-path whose last segment is `tenants` is read as a tenant listing. */
export function isTenantListing(sub: string): boolean {
  return sub.split('/').at(-1) === 'tenants';
}

/**
 * With a key: / (does the key pass where a key is needed), the platform sub-paths (tenant
 * listings first: they name slugs as well as telling the key's kind), the resources of --tenant.
 */
export function keyedCalls(auth: AuthScheme, platformPaths: readonly string[], tenant: string | undefined): Call[] {
  const subs = [...platformPaths.filter(isTenantListing), ...platformPaths.filter((sub) => !isTenantListing(sub))];
  const call = (id: string, endpoint: Call['endpoint'], path: string): Call => ({ id, endpoint, path, auth });
  return [
    call('index:key', 'index', endpointPath('index')),
    ...subs.slice(0, MAX_PLATFORM_CALLS).map((sub) => call(`platform:${sub}`, 'platform', platformPath(sub))),
    ...(tenant === undefined ? [] : TENANT_RESOURCES.map((r) => call(`resource:${r}`, r, endpointPath(r, { tenant })))),
  ];
}

/** A tenant path needs a key (spec §4): asked with a made-up key, then with none. */
export function refusalCalls(auth: AuthScheme, tenant: string): Call[] {
  const path = endpointPath('clients', { tenant });
  return [
    { id: 'invalid-key', endpoint: 'clients', path, auth, madeUpKey: true },
    { id: 'missing-key', endpoint: 'clients', path, auth: 'none' },
  ];
}
