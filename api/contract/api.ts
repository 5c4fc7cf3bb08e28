/** API v1 paths, endpoints and their access rules: the one place they are written down. */

export const API_VERSION = 'v1';
/** `{base_url}` ends in this segment (spec §9.1). */
export const BASE_PATH = '/api/v1';

export const TENANT_RESOURCES = ['clients', 'bikes', 'repairs', 'logs'] as const;
export type TenantResource = (typeof TENANT_RESOURCES)[number];

/** Identifiers used in logs, reports and metric labels; never a URL. */
export const ENDPOINT_IDS = ['index', 'docs', 'platform', ...TENANT_RESOURCES] as const;
export type EndpointId = (typeof ENDPOINT_IDS)[number];

/**
 * Who may call an endpoint: `public` no key, `any_key` any valid key, `platform` platform keys only,
 * `tenant` a platform key or a tenant key assigned to the tenant in the path.
 */
export type Access = 'public' | 'any_key' | 'platform' | 'tenant';

export interface EndpointSpec {
  readonly id: EndpointId;
  readonly method: 'GET';
  /** Relative to `{base_url}`; `{tenant}` and `*` are placeholders. */
  readonly pathTemplate: string;
  readonly access: Access;
  /** Whether `data` is an array on success (spec §2 rule 1). */
  readonly list: boolean;
  readonly returns: string;
}

const endpoint = (id: EndpointId, pathTemplate: string, access: Access, list: boolean, returns: string): EndpointSpec => {
  return { id, method: 'GET', pathTemplate, access, list, returns };
};

export const ENDPOINTS: readonly EndpointSpec[] = [
  // Whether `/` needs a key is not shown (readings.ts): clients send the key, which a public `/` ignores.
  endpoint('index', '/', 'any_key', false, 'API index with a link to the documentation'),
  endpoint('docs', '/docs', 'public', false, 'catalog of endpoints and description of the authorization model'),
  endpoint('platform', '/platform/*', 'platform', false, 'global operations for platform administration'),
  ...TENANT_RESOURCES.map((r) => endpoint(r, `/tenants/{tenant}/${r}`, 'tenant', true, `list of the tenant's ${r}`)),
];

export function endpointSpec(id: EndpointId): EndpointSpec {
  const spec = ENDPOINTS.find((e) => e.id === id);
  if (!spec) throw new Error(`unknown endpoint id: ${String(id)}`);
  return spec;
}

export function isTenantResource(value: string): value is TenantResource {
  return (TENANT_RESOURCES as readonly string[]).includes(value);
}

/** `/tenants/{tenant}/{resource}`; the slug is URL-encoded so a bad one cannot change the path. */
export function tenantResourcePath(tenant: string, resource: TenantResource): string {
  return `/tenants/${encodeURIComponent(tenant)}/${resource}`;
}

/** `/platform/{sub}`, e.g. `sub` = `tenants`. */
export function platformPath(sub: string): string {
  return `/platform/${sub.replace(/^\/+/, '')}`;
}

/** Path of an endpoint, relative to `{base_url}`. */
export function endpointPath(id: EndpointId, params: { tenant?: string; platformSub?: string } = {}): string {
  if (id === 'index') return '/';
  if (id === 'docs') return '/docs';
  if (id === 'platform') return platformPath(params.platformSub ?? '');
  if (params.tenant === undefined) throw new Error(`endpoint ${id} needs a tenant`);
  return tenantResourcePath(params.tenant, id);
}

/** `{base_url}` (which keeps its own `/api/v1`) and a relative path; a trailing slash on either side is tolerated. */
export function joinUrl(baseUrl: string, path: string): string {
  // Regular expressions only when there is a slash to trim: this runs on every request.
  const base = baseUrl.endsWith('/') ? baseUrl.replace(/\/+$/, '') : baseUrl;
  if (path === '/' || path === '') return `${base}/`;
  return path.startsWith('/') && !path.startsWith('//') ? base + path : `${base}/${path.replace(/^\/+/, '')}`;
}
