/**
 * What the contract's access rules, read in a dialect, say a request should get: a small pure
 * function of the endpoint's access level, the caller's key metadata and the dialect's
 * settings. The conformance suite compares the sandbox against this, so a bug in the
 * sandbox's own decision cannot hide in a copied table: nothing here imports the sandbox's
 * refusal or header code, only the settings' types.
 */
import {
  type EndpointSpec,
  ERROR_CODES,
  type KeyKind,
  RATE_LIMIT_HEADERS as H,
  type Scope,
  type TenantResource,
} from '../../api/contract/index.js';
import type { DialectSettings } from '../../sandbox/dialect/index.js';

export type Caller =
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'unknown' }
  | {
      readonly kind: 'key';
      readonly keyKind: KeyKind;
      readonly tenant?: string;
      readonly scopes: readonly Scope[];
      readonly revoked: boolean;
    };

export interface Target {
  readonly endpoint: EndpointSpec;
  /** Tenant in the path, for tenant endpoints. */
  readonly tenant?: string;
  /** Whether the thing named by the path exists (known tenant, served platform sub-path). */
  readonly exists: boolean;
  /** False for a tenant slug outside the dialect's style. */
  readonly inStyle?: boolean;
}

export interface Expected {
  readonly status: number;
  readonly code?: string;
  /** Whether the rate limiter counted the request (a valid key on a path that needs one). */
  readonly counted: boolean;
}

/** Every answer is the envelope (spec §1), in every dialect. */
function answer(_d: DialectSettings, status: number, code: string | undefined, counted: boolean): Expected {
  return { status, counted, ...(code === undefined ? {} : { code }) };
}

function scopeRefusal(d: DialectSettings): Expected {
  if (d.scopeRefusal === 'not_found') return answer(d, 404, ERROR_CODES.notFound, true);
  return answer(d, 403, d.scopeRefusal === 'forbidden' ? 'forbidden' : ERROR_CODES.insufficientScope, true);
}

function platformRefusal(d: DialectSettings): Expected {
  if (d.platformRefusal === 'not_found') return answer(d, 404, ERROR_CODES.notFound, true);
  if (d.platformRefusal === 'unauthorized') return answer(d, d.unauthorizedStatus, ERROR_CODES.unauthorized, true);
  return answer(d, 403, ERROR_CODES.platformKeyRequired, true);
}

export function expected(target: Target, caller: Caller, d: DialectSettings): Expected {
  const { endpoint } = target;
  if (endpoint.access === 'public') return answer(d, 200, undefined, false);
  if (endpoint.id === 'index' && d.index === 'public') return answer(d, 200, undefined, false);
  if (caller.kind === 'none') return answer(d, d.unauthorizedStatus, d.missingKey, false);
  if (caller.kind !== 'key' || caller.revoked) return answer(d, d.unauthorizedStatus, ERROR_CODES.unauthorized, false);
  if (endpoint.access === 'platform') {
    if (caller.keyKind !== 'platform') return platformRefusal(d);
    if (!caller.scopes.includes('platform')) return scopeRefusal(d);
  }
  if (endpoint.access === 'tenant') {
    // Spec §5.5: the tenant comparison comes first, whatever the dialect; scope is checked for the key's own tenant.
    if (caller.keyKind === 'tenant' && caller.tenant !== target.tenant) return answer(d, 403, ERROR_CODES.tenantMismatch, true);
    // The key is judged before the slug (spec §5.6: an invalid key gets `unauthorized` without exception).
    if (target.inStyle === false) return answer(d, 400, ERROR_CODES.invalidTenantSlug, true);
    if (!caller.scopes.includes(endpoint.id as TenantResource)) return scopeRefusal(d);
  }
  return target.exists ? answer(d, 200, undefined, true) : answer(d, 404, ERROR_CODES.notFound, true);
}

/** Every (code, status) the dialect sends in an envelope: what its /docs error table must list. */
export function expectedErrorTable(d: DialectSettings): { code: string; status: number }[] {
  const answers = [
    answer(d, d.unauthorizedStatus, d.missingKey, false),
    answer(d, d.unauthorizedStatus, ERROR_CODES.unauthorized, false),
    answer(d, 403, ERROR_CODES.tenantMismatch, true),
    scopeRefusal(d),
    platformRefusal(d),
    answer(d, 429, ERROR_CODES.rateLimited, true),
    answer(d, 404, ERROR_CODES.notFound, true),
    answer(d, 405, ERROR_CODES.methodNotAllowed, false),
    answer(d, 400, ERROR_CODES.invalidTenantSlug, true),
    answer(d, 400, ERROR_CODES.badRequest, false),
    answer(d, 500, ERROR_CODES.internalError, false),
  ];
  const table = answers.flatMap((a) => (a.code === undefined ? [] : [{ code: a.code, status: a.status }]));
  return table.filter((e, i) => table.findIndex((o) => o.code === e.code && o.status === e.status) === i);
}

/** Every rate-limit header name any style uses: an answer must carry exactly its style's. */
export const ALL_RATE_LIMIT_HEADERS: readonly string[] = Object.values(H);

/** The headers a counted answer that was not refused by the limiter carries in the dialect. */
export function expectedRateHeaders(d: DialectSettings, counted: boolean): string[] {
  if (!counted) return [];
  switch (d.rateLimitHeaders) {
    case 'ietf':
      return [H.limit, H.remaining, H.reset];
    case 'ratelimit-field':
      return [H.field, H.policy];
    case 'x-ratelimit-epoch':
    case 'x-ratelimit-delta':
      return [H.xLimit, H.xRemaining, H.xReset];
    case 'retry-after-date':
    case 'none':
      return [];
  }
}
