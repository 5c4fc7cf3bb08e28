/**
 * Which calls the probe makes, in priority order because a customer's quota may run out
 * mid-run: /docs, the tenant paths, `/platform/<sub>`, the other header form, `/` last (it
 * decides nothing). At most 1 + MAX_PLATFORM_CALLS + MAX_TENANT_GUESSES + 3 + 1 + 1 = REQUEST_BUDGET.
 */
import { resourceCall } from '../api/checklist/index.js';
import { type Call } from './engine.js';
import type { AttemptResult } from '../api/client/single-attempt.js';
import { type AuthScheme, TENANT_RESOURCES, endpointPath, isTenantSlug } from '../api/contract/index.js';
import { otherScheme, platformPath } from '../api/contract/index.js';
import { tenantSlugsInListing } from '../api/contract/readings.js';
import { okData } from './observations.js';

/** Tenants named by /docs tried with a key whose tenant nothing else names. */
export const MAX_TENANT_GUESSES = 2;

/** The id of the call that repeats `scope:clients` with the other header form. */
export const OTHER_HEADER_CALL_ID = 'clients:other-header';

export const indexCall = (auth: AuthScheme): Call => ({ id: 'index', endpoint: 'index', path: endpointPath('index'), auth });

export function platformCall(auth: AuthScheme, sub: string): Call {
  return { id: `platform:${sub}`, endpoint: 'platform', path: platformPath(sub), auth };
}

export const resourceCalls = (auth: AuthScheme, tenant: string): Call[] => TENANT_RESOURCES.map((r) => resourceCall(auth, tenant, r));

/** Clients with the other header form: a tenant path needs a key under every reading, so both forms must agree there. */
export function otherHeaderCall(auth: AuthScheme, tenant: string): Call {
  return { ...resourceCall(otherScheme(auth), tenant, 'clients'), id: OTHER_HEADER_CALL_ID };
}

/** `/tenants/<slug>/...` with a concrete slug, with or without origin and base path, or as a request (`GET /api/v1/...`). */
const TENANT_PATH = /^(?:GET\s+)?(?:https?:\/\/[^/]+)?(?:\/api\/v\d+)?\/tenants\/([^/\s?#*{}<>:]+)(?:\/|$)/;

function decoded(segment: string): string | undefined {
  try {
    const slug = decodeURIComponent(segment);
    return isTenantSlug(slug) ? slug : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tenants a /docs catalog names in example paths or a `tenants` list, in order: tried when
 * support named none. Its shape is not shown, so it is read leniently and gives up quietly.
 */
export function tenantsInDocs(docs: AttemptResult | undefined): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, depth: number, key: string | undefined): void => {
    if (depth > 8) return;
    if (typeof value === 'string') {
      const match = TENANT_PATH.exec(value.trim());
      const slug = match?.[1] === undefined ? undefined : decoded(match[1]);
      if (slug !== undefined) found.add(slug);
    } else if (Array.isArray(value)) {
      const named = key === 'tenants' ? tenantSlugsInListing(value) : [];
      for (const slug of named) found.add(slug);
      if (named.length === 0) for (const item of value) visit(item, depth + 1, undefined);
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, item] of Object.entries(value)) visit(item, depth + 1, k);
    }
  };
  visit(okData(docs)?.data, 0, undefined);
  return [...found];
}
