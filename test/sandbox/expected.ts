/**
 * What the contract's access rules say a request should get, as a small pure function of the
 * endpoint's access level and the caller's key metadata. The conformance suite compares the
 * sandbox against this, so a bug in the sandbox's own decision cannot hide in a copied table.
 */
import { type EndpointSpec, ERROR_CODES, type ErrorCode, type KeyKind, MISSING_KEY_CODE, type Scope, type TenantResource } from '../../api/contract/index.js';
import { ERROR_STATUS } from '../../api/contract/server/index.js';

export type Caller =
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'key'; readonly keyKind: KeyKind; readonly tenant?: string; readonly scopes: readonly Scope[]; readonly revoked: boolean };

export interface Target {
  readonly endpoint: EndpointSpec;
  /** Tenant in the path, for tenant endpoints. */
  readonly tenant?: string;
  /** Whether the thing named by the path exists (known tenant, served platform sub-path). */
  readonly exists: boolean;
}

export interface Expected {
  readonly status: number;
  readonly code?: ErrorCode;
}

function error(code: ErrorCode): Expected {
  return { status: ERROR_STATUS[code], code };
}

function resourceOf(endpoint: EndpointSpec): TenantResource {
  return endpoint.id as TenantResource;
}

export function expected(target: Target, caller: Caller): Expected {
  const { endpoint } = target;
  if (endpoint.access === 'public') return { status: 200 };
  if (caller.kind !== 'key') return error(caller.kind === 'none' ? MISSING_KEY_CODE : ERROR_CODES.unauthorized);
  if (caller.revoked) return error(ERROR_CODES.unauthorized);
  if (endpoint.access === 'platform') {
    if (caller.keyKind !== 'platform') return error(ERROR_CODES.platformKeyRequired);
    if (!caller.scopes.includes('platform')) return error(ERROR_CODES.insufficientScope);
  }
  if (endpoint.access === 'tenant') {
    // Spec §5.5: the tenant comparison comes first; scope is checked for the key's own tenant.
    if (caller.keyKind === 'tenant' && caller.tenant !== target.tenant) return error(ERROR_CODES.tenantMismatch);
    if (!caller.scopes.includes(resourceOf(endpoint))) return error(ERROR_CODES.insufficientScope);
  }
  return target.exists ? { status: 200 } : error(ERROR_CODES.notFound);
}
