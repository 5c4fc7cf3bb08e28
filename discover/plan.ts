/**
 * The GET requests discovery may make, and their order. Every call is one attempt, sent one
 * after another; the plan is capped so an ops engineer knows the most it will ever send.
 */
import { type EndpointId, TENANT_RESOURCES, endpointPath, platformPath } from '../api/contract/index.js';
import type { AttemptResult } from '../api/client/single-attempt.js';

/** What a call presents: nothing, a key we made up (so it cannot be valid), or the user's key. */
export type Credential = 'none' | 'made-up' | 'key';

export interface DiscoveryCall {
  /** `docs`, `index`, `index:key`, `platform:<sub>`, `resource:<name>`, `invalid-key`, `missing-key`. */
  readonly id: string;
  readonly endpoint: EndpointId;
  /** Relative to the base URL. */
  readonly path: string;
  readonly credential: Credential;
}

export interface CallRecord {
  readonly call: DiscoveryCall;
  readonly result: AttemptResult;
}

/** Calls in the order they were made; a call not made has no record. */
export type Observations = ReadonlyMap<string, CallRecord>;

/**
 * At most this many /platform/ sub-paths are asked with the key: one answer tells a platform
 * key from a tenant key, and a tenant listing (asked first) names the slugs.
 */
export const MAX_PLATFORM_CALLS = 3;

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

export const DOCS_CALL: DiscoveryCall = { id: 'docs', endpoint: 'docs', path: endpointPath('docs'), credential: 'none' };
export const INDEX_CALL: DiscoveryCall = { id: 'index', endpoint: 'index', path: endpointPath('index'), credential: 'none' };

/** A sub-path whose last segment is `tenants` is read as a tenant listing. */
export function isTenantListing(sub: string): boolean {
  return sub.split('/').at(-1) === 'tenants';
}

/** Tenant listings first: they name slugs as well as telling the key's kind. */
export function platformCallPaths(listed: readonly string[]): string[] {
  const ordered = [...listed.filter(isTenantListing), ...listed.filter((sub) => !isTenantListing(sub))];
  return ordered.slice(0, MAX_PLATFORM_CALLS);
}

/** With a key: / (does the key pass where a key is needed), the platform sub-paths, the resources of --tenant. */
export function keyedCalls(platformPaths: readonly string[], tenant: string | undefined): DiscoveryCall[] {
  return [
    { id: 'index:key', endpoint: 'index', path: endpointPath('index'), credential: 'key' },
    ...platformCallPaths(platformPaths).map((sub): DiscoveryCall => ({ id: `platform:${sub}`, endpoint: 'platform', path: platformPath(sub), credential: 'key' })),
    ...(tenant === undefined
      ? []
      : TENANT_RESOURCES.map((resource): DiscoveryCall => ({ id: `resource:${resource}`, endpoint: resource, path: endpointPath(resource, { tenant }), credential: 'key' }))),
  ];
}

/** A tenant path needs a key (spec §4): asked with a made-up key, then with none. */
export function refusalCalls(tenant: string): DiscoveryCall[] {
  const path = endpointPath('clients', { tenant });
  return [
    { id: 'invalid-key', endpoint: 'clients', path, credential: 'made-up' },
    { id: 'missing-key', endpoint: 'clients', path, credential: 'none' },
  ];
}
