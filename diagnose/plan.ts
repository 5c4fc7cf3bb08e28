/**
 * Which calls the probe makes, in the checklist's order. The resource calls wait for the
 * first phase because a platform key's tenant may be learned from `/platform/<sub>`.
 */
import {
  type AuthScheme,
  TENANT_RESOURCES,
  endpointPath,
  isTenantSlug,
  otherScheme,
  platformPath,
} from '../api/contract/index.js';
import type { Observations, DiagnosisCall } from './observe.js';

export const DOCS_CALL: DiagnosisCall = { id: 'docs', endpoint: 'docs', path: endpointPath('docs'), auth: 'none' };

/** After /docs (which may name the /platform/ sub-paths): `/`, then each platform path. */
export function firstPhaseCalls(auth: AuthScheme, platformPaths: readonly string[]): DiagnosisCall[] {
  return [
    { id: 'index', endpoint: 'index', path: endpointPath('index'), auth },
    ...platformPaths.map((sub): DiagnosisCall => ({ id: `platform:${sub}`, endpoint: 'platform', path: platformPath(sub), auth })),
  ];
}

/** The id of the call that repeats `scope:clients` with the other header form. */
export const OTHER_HEADER_CALL_ID = 'clients:other-header';

/**
 * Each resource of the tenant, then clients again with the other header form: a tenant path
 * needs a key under every reading of the spec, so the two forms must give the same answer
 * there (on a public `/` they would agree whatever the server made of the key).
 */
export function resourceCalls(auth: AuthScheme, tenant: string): DiagnosisCall[] {
  return [
    ...TENANT_RESOURCES.map((resource): DiagnosisCall => ({ id: `scope:${resource}`, endpoint: resource, path: endpointPath(resource, { tenant }), auth })),
    { id: OTHER_HEADER_CALL_ID, endpoint: 'clients', path: endpointPath('clients', { tenant }), auth: otherScheme(auth) },
  ];
}

function slugOf(item: unknown): string | undefined {
  if (typeof item === 'string') return isTenantSlug(item) ? item : undefined;
  if (typeof item !== 'object' || item === null) return undefined;
  // A display `name` is not a slug; the spec shows no listing's fields, these are common ones.
  for (const field of ['slug', 'tenant', 'id']) {
    const value = (item as Record<string, unknown>)[field];
    if (typeof value === 'string' && isTenantSlug(value)) return value;
  }
  return undefined;
}

/**
 * A platform key with no tenant given: take the first tenant a platform listing names. The
 * listing's shape is not shown by the spec, so this reads a list of slugs or of objects
 * carrying one and gives up quietly on anything else.
 */
export function inferTenant(observations: Observations, platformPaths: readonly string[]): string | undefined {
  for (const sub of platformPaths) {
    const result = observations.get(`platform:${sub}`)?.result;
    if (result?.kind !== 'response' || result.classification.kind !== 'ok') continue;
    const data = result.classification.data;
    const list = Array.isArray(data) ? data : typeof data === 'object' && data !== null ? Object.values(data).find(Array.isArray) : undefined;
    const slug = Array.isArray(list) ? list.map(slugOf).find((s) => s !== undefined) : undefined;
    if (slug !== undefined) return slug;
  }
  return undefined;
}
