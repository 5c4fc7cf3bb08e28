/**
 * Which endpoint of the spec a caller's path is, so that `get(path)` treats `/docs` as
 * public, `/tenants/x/repairs` as a list of tenant `x`, and any other path (one the spec does
 * not show, e.g. `/tenants/x/repairs/17`) as keyed with `data` of any shape.
 */
import { type EndpointId, ENDPOINTS, isTenantResource } from '../contract/index.js';

export interface Route {
  readonly endpoint: EndpointId | undefined;
  /** The tenant slug in a `/tenants/{tenant}/...` path, decoded. */
  readonly tenant: string | undefined;
  readonly sendKey: boolean;
}

/** Endpoints that carry the key (all but the public ones). */
const SENDS_KEY: ReadonlySet<EndpointId> = new Set(ENDPOINTS.filter((e) => e.access !== 'public').map((e) => e.id));

export function sendsKey(endpoint: EndpointId | undefined): boolean {
  return endpoint === undefined || SENDS_KEY.has(endpoint);
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const TENANT_PATH = /^\/tenants\/([^/]+)(?:\/([^/]+))?(\/.*)?$/;

/** The route of a path already checked by `checkSubPath` (one leading `/`). */
export function routeOf(path: string): Route {
  const route = (endpoint: EndpointId | undefined, tenant?: string): Route => ({ endpoint, tenant, sendKey: sendsKey(endpoint) });
  if (path === '/') return route('index');
  if (path === '/docs' || path === '/docs/') return route('docs');
  if (path.startsWith('/platform/')) return route('platform');
  const match = TENANT_PATH.exec(path);
  if (!match) return route(undefined);
  const tenant = decoded(match[1] ?? '');
  const resource = match[2];
  const rest = match[3];
  const list = resource !== undefined && isTenantResource(resource) && (rest === undefined || rest === '/');
  return route(list ? resource : undefined, tenant);
}
