/**
 * Where requests go: API v1's paths, endpoints and their access rules, tenant slugs and the
 * base URL, each written down once.
 */

export const API_VERSION = 'v1';
/** `{base_url}` ends in this segment (spec §9.1). */
export const BASE_PATH = '/api/v1';

export const TENANT_RESOURCES = ['clients', 'bikes', 'repairs', 'logs'] as const;
export type TenantResource = (typeof TENANT_RESOURCES)[number];

/** In logs, reports and metric labels; never a URL. */
export const ENDPOINT_IDS = ['index', 'docs', 'platform', ...TENANT_RESOURCES] as const;
export type EndpointId = (typeof ENDPOINT_IDS)[number];

/**
 * Who may call an endpoint: `public` no key, `any_key` any valid key, `platform` platform keys
 * only, `tenant` a platform key or a tenant key assigned to the tenant in the path.
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

const endpoint = (
  id: EndpointId,
  pathTemplate: string,
  access: Access,
  list: boolean,
  returns: string,
): EndpointSpec => ({ id, method: 'GET', pathTemplate, access, list, returns });

export const ENDPOINTS: readonly EndpointSpec[] = [
  // Whether `/` needs a key is not shown (readings.ts): clients send the key, which a public `/`
  // ignores.
  endpoint('index', '/', 'any_key', false, 'API index with a link to the documentation'),
  endpoint(
    'docs',
    '/docs',
    'public',
    false,
    'catalog of endpoints and description of the authorization model',
  ),
  endpoint(
    'platform',
    '/platform/*',
    'platform',
    false,
    'global operations for platform administration',
  ),
  ...TENANT_RESOURCES.map((r) =>
    endpoint(r, `/tenants/{tenant}/${r}`, 'tenant', true, `list of the tenant's ${r}`),
  ),
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

export function platformPath(sub: string): string {
  return `/platform/${sub.replace(/^\/+/, '')}`;
}

export function endpointPath(
  id: EndpointId,
  params: { tenant?: string; platformSub?: string } = {},
): string {
  if (id === 'index') return '/';
  if (id === 'docs') return '/docs';
  if (id === 'platform') return platformPath(params.platformSub ?? '');
  if (params.tenant === undefined) throw new Error(`endpoint ${id} needs a tenant`);
  return tenantResourcePath(params.tenant, id);
}

/**
 * `{base_url}` (which keeps its own `/api/v1`) and a relative path; a trailing slash on either side
 * is tolerated.
 */
export function joinUrl(baseUrl: string, path: string): string {
  // Regular expressions only when there is a slash to trim: this runs on every request.
  const base = baseUrl.endsWith('/') ? baseUrl.replace(/\/+$/, '') : baseUrl;
  if (path === '/' || path === '') return `${base}/`;
  return path.startsWith('/') && !path.startsWith('//')
    ? base + path
    : `${base}/${path.replace(/^\/+/, '')}`;
}

/**
 * Tenant slugs, the `{tenant}` path parameter. READING (spec §2: a slug's format is not shown):
 * any slug a real API may use is taken (`rowery_nowak`, `RoweryNowak`, `sklep.pl`); refused is only
 * what cannot be one path segment or is absurdly long. Whether the server knows the tenant is its
 * answer.
 */
export const TENANT_SLUG_MAX_LENGTH = 256;

export type SlugCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function validateTenantSlug(value: string): SlugCheck {
  if (value.length === 0) return { ok: false, reason: 'is empty' };
  if (value.length > TENANT_SLUG_MAX_LENGTH)
    return { ok: false, reason: `is longer than ${TENANT_SLUG_MAX_LENGTH} characters` };
  if (value === '.' || value === '..')
    return { ok: false, reason: 'cannot be "." or "..": a URL would resolve it away' };
  if (value.includes('/'))
    return { ok: false, reason: 'cannot contain "/": it must be one path segment' };
  if (CONTROL.test(value)) return { ok: false, reason: 'cannot contain control characters' };
  if (/\p{Cs}/u.test(value))
    return { ok: false, reason: 'is not valid text (a lone surrogate cannot be percent-encoded)' };
  return { ok: true };
}

export function isTenantSlug(value: string): boolean {
  return validateTenantSlug(value).ok;
}

export type BaseUrlProblem =
  | 'control_character'
  | 'not_url'
  | 'not_http'
  | 'not_https'
  | 'credentials'
  | 'query'
  | 'version_path';

export type BaseUrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly problem: BaseUrlProblem; readonly reason: string };

/**
 * A URL parser drops tabs and line breaks, so `https://h/api/v1<LF>X=1<LF>/api/v1` would pass while
 * the text still holds a line break, an extra line in a `.env` file or a log: the raw text first.
 */
function controlCharacter(raw: string): string | undefined {
  const at = raw.search(CONTROL);
  if (at < 0) return undefined;
  const code = raw.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
  const where = `U+${code} at position ${at + 1}`;
  const such = 'such as a line break or tab from a copy-paste';
  return `must not contain control characters (${where}), ${such}`;
}

/**
 * A `{base_url}` safe to send a key to (spec §9.1); callers prefix the reason with their name for
 * it.
 */
export function checkBaseUrl(
  raw: string,
  rules: { readonly requireHttps?: boolean } = {},
): BaseUrlCheck {
  const fail = (problem: BaseUrlProblem, reason: string): BaseUrlCheck => ({
    ok: false,
    problem,
    reason,
  });
  const control = controlCharacter(raw);
  if (control !== undefined) return fail('control_character', control);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('not_url', `is not a URL (expected e.g. https://host${BASE_PATH})`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return fail('not_http', `must use http or https, not ${url.protocol}`);
  if (rules.requireHttps && url.protocol !== 'https:')
    return fail('not_https', 'must use https: a production key must never travel in clear text');
  if (url.username !== '' || url.password !== '')
    return fail(
      'credentials',
      'must not carry credentials (user:password@): a key never goes in a URL',
    );
  if (url.search !== '' || url.hash !== '')
    return fail('query', 'must not have a query or fragment');
  if (!url.pathname.replace(/\/+$/, '').endsWith(BASE_PATH)) {
    return fail(
      'version_path',
      `must end in ${BASE_PATH} (the base address contains the version), got path ` +
        JSON.stringify(url.pathname),
    );
  }
  return { ok: true, url };
}
