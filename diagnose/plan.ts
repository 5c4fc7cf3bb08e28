/**
 * Which calls the probe makes. In priority order, because a customer's quota may run out
 * mid-run: /docs (public, usually not counted), the tenant paths that decide key, tenant and
 * scope, one `/platform/<sub>` for the key's kind, the other header form, and `/` last (the
 * spec does not say whether it needs a key, so it decides nothing). At most
 * 1 + MAX_PLATFORM_CALLS (observations.ts) + MAX_TENANT_GUESSES + 3 + 1 + 1 = 10 calls, REQUEST_BUDGET.
 */
import type { AttemptResult } from '../api/client/single-attempt.js';
import { type AuthScheme, TENANT_RESOURCES, type TenantResource, endpointPath, otherScheme, platformPath } from '../api/contract/index.js';
import type { Call } from './observations.js';

/** Tenants named by /docs tried with a key whose tenant nothing else names. */
export const MAX_TENANT_GUESSES = 2;

/** The id of the call that repeats `scope:clients` with the other header form. */
export const OTHER_HEADER_CALL_ID = 'clients:other-header';

export function indexCall(auth: AuthScheme): Call {
  return { id: 'index', endpoint: 'index', path: endpointPath('index'), auth };
}

export function platformCall(auth: AuthScheme, sub: string): Call {
  return { id: `platform:${sub}`, endpoint: 'platform', path: platformPath(sub), auth };
}

export function resourceCall(auth: AuthScheme, tenant: string, resource: TenantResource): Call {
  return { id: `scope:${resource}`, endpoint: resource, path: endpointPath(resource, { tenant }), auth };
}

export function resourceCalls(auth: AuthScheme, tenant: string): Call[] {
  return TENANT_RESOURCES.map((resource) => resourceCall(auth, tenant, resource));
}

/**
 * Clients again with the other header form: a tenant path needs a key under every reading of
 * the spec, so the two forms must give the same answer there (on a public `/` they would
 * agree whatever the server made of the key).
 */
export function otherHeaderCall(auth: AuthScheme, tenant: string): Call {
  return { id: OTHER_HEADER_CALL_ID, endpoint: 'clients', path: endpointPath('clients', { tenant }), auth: otherScheme(auth) };
}

/** A tenant /docs named, tried on clients: if the key is this tenant's, it is that tenant's clients call. */
export function guessCall(auth: AuthScheme, slug: string): Call {
  return { ...resourceCall(auth, slug, 'clients'), id: `guess:${slug}` };
}

/**
 * Whether a /platform/ answer already tells what the key is, so no other sub-path is needed:
 * data (a platform key) or any refusal (a tenant key, or a rejected one). A 5xx, a 429 or no
 * answer tells nothing.
 */
export function settlesKeyKind(result: AttemptResult | undefined): boolean {
  return result?.kind === 'response' && result.status < 500 && result.status !== 429;
}

/** A tenant key on a tenant /docs named: a mismatch means "not this one", anything else decides. */
export function guessMissed(result: AttemptResult | undefined): boolean {
  return result?.kind === 'response' && result.classification.kind === 'tenant_mismatch';
}
