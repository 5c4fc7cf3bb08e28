/**
 * Matching a request path against the v1 endpoint table. Pure; the sandbox routes with it.
 */
import { BASE_PATH, type TenantResource, isTenantResource, validateTenantSlug } from '../index.js';

export type Route =
  | { readonly kind: 'index' }
  | { readonly kind: 'docs' }
  | { readonly kind: 'platform'; readonly subpath: string }
  | { readonly kind: 'tenant'; readonly tenant: string; readonly resource: TenantResource }
  | { readonly kind: 'invalid_tenant'; readonly tenant: string; readonly reason: string }
  | { readonly kind: 'unknown' };

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Matches an absolute request path (query already removed) such as `/api/v1/tenants/x/bikes`. */
export function matchRoute(pathname: string): Route {
  if (pathname !== BASE_PATH && !pathname.startsWith(`${BASE_PATH}/`)) return { kind: 'unknown' };
  const rest = pathname.slice(BASE_PATH.length).replace(/\/+$/, '');
  if (rest === '') return { kind: 'index' };
  if (rest === '/docs') return { kind: 'docs' };
  if (rest.startsWith('/platform/') && rest.length > '/platform/'.length) {
    return { kind: 'platform', subpath: rest.slice('/platform/'.length) };
  }
  const parts = rest.split('/');
  // ['', 'tenants', slug, resource]
  if (parts.length === 4 && parts[1] === 'tenants' && isTenantResource(parts[3] ?? '')) {
    const tenant = safeDecode(parts[2] ?? '');
    if (tenant === undefined)
      return {
        kind: 'invalid_tenant',
        tenant: parts[2] ?? '',
        reason: 'not valid percent-encoding',
      };
    const check = validateTenantSlug(tenant);
    if (!check.ok) return { kind: 'invalid_tenant', tenant, reason: check.reason };
    return { kind: 'tenant', tenant, resource: parts[3] as TenantResource };
  }
  return { kind: 'unknown' };
}
