/**
 * API v1 paths, endpoints and their access rules: the one place they are written down.
 * Plain TypeScript, no dependencies.
 */

export const API_VERSION = 'v1';
/** `{base_url}` ends in this segment (spec §9.1). */
export const BASE_PATH = '/api/v1';

export const TENANT_RESOURCES = ['clients', 'bikes', 'repairs', 'logs'] as const;
export type TenantResource = (typeof TENANT_RESOURCES)[number];

/** Identifiers used in logs, reports and metric labels; never a URL. */
export const ENDPOINT_IDS = ['index', 'docs', 'platform', ...TENANT_RESOURCES] as const;
export type EndpointId = (typeof ENDPOINT_IDS)[number];

/**
 * Who may call an endpoint.
 * - public: no key needed
 * - any_key: any valid key, platform or tenant
 * - platform: platform keys only
 * - tenant: a platform key, or a tenant key assigned to the tenant in the path
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

export const ENDPOINTS: readonly EndpointSpec[] = [
  // Whether `/` needs a key is not shown (readings.ts INDEX_ACCESS): clients send the key there,
  // which a public `/` ignores, so a call to `/` works under either reading.
  { id: 'index', method: 'GET', pathTemplate: '/', access: 'any_key', list: false, returns: 'API index with a link to the documentation' },
  {
    id: 'docs',
    method: 'GET',
    pathTemplate: '/docs',
    access: 'public',
    list: false,
    returns: 'catalog of endpoints and description of the authorization model',
  },
  {
    id: 'platform',
    method: 'GET',
    pathTemplate: '/platform/*',
    access: 'platform',
    list: false,
    returns: 'global operations for platform administration',
  },
  ...TENANT_RESOURCES.map((resource): EndpointSpec => ({
    id: resource,
    method: 'GET',
    pathTemplate: `/tenants/{tenant}/${resource}`,
    access: 'tenant',
    list: true,
    returns: `list of the tenant's ${resource}`,
  })),
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

/** `/platform/{sub}`; `sub` is a path below /platform/ such as `tenants`. */
export function platformPath(sub: string): string {
  return `/platform/${sub.replace(/^\/+/, '')}`;
}

/** Path of an endpoint, relative to `{base_url}`. */
export function endpointPath(id: EndpointId, params: { tenant?: string; platformSub?: string } = {}): string {
  switch (id) {
    case 'index':
      return '/';
    case 'docs':
      return '/docs';
    case 'platform':
      return platformPath(params.platformSub ?? '');
    default:
      if (params.tenant === undefined) throw new Error(`endpoint ${id} needs a tenant`);
      return tenantResourcePath(params.tenant, id);
  }
}

/**
 * Joins `{base_url}` and a relative path. The base URL keeps its own path (`.../api/v1`);
 * a trailing slash on either side is tolerated so `/` maps to the base address itself.
 */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (path === '/' || path === '') return `${base}/`;
  return `${base}/${path.replace(/^\/+/, '')}`;
}
