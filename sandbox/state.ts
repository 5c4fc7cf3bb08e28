/**
 * What `decide` answers from, built once at start: the keys by value, the route of every path
 * the data serves, and every success envelope that depends on the data alone, serialised ahead
 * (`servedEnvelope`): the data never changes while the sandbox runs, so no request pays for
 * routing those paths or for JSON.stringify.
 */
import {
  BASE_PATH,
  type Envelope,
  TENANT_RESOURCES,
  type TenantResource,
  endpointPath,
  platformPath,
  tenantResourcePath,
} from '../api/contract/index.js';
import { type SlugStyle } from '../api/contract/readings.js';
import { type Route, matchRoute } from '../api/contract/server/index.js';
import { type Dialect, checkSlugStyle } from './dialect/index.js';
import { INDEX_PAYLOAD, docsPayload } from './docs.js';
import { type DemoKey, type SandboxData, type TenantData, keyMetadata } from './model.js';
import { servedEnvelope } from './respond.js';

export interface SandboxState {
  /** Slug -> the envelope of each of its resources. */
  readonly tenants: ReadonlyMap<string, Readonly<Record<TenantResource, Envelope>>>;
  readonly keys: readonly DemoKey[];
  readonly keysByValue: ReadonlyMap<string, DemoKey>;
  /** Which reading of each "not shown" point every answer follows. */
  readonly dialect: Dialect;
  readonly index: Envelope;
  readonly docs: Envelope;
  /** The dialect's platform sub-paths -> their listing. */
  readonly platform: ReadonlyMap<string, Envelope>;
  /** The route of each path above, as `routeOf` would match it. */
  readonly routes: ReadonlyMap<string, Route>;
}

/** The contract's route, with a slug outside the dialect's style refused like a malformed one. */
function styledRoute(pathname: string, style: SlugStyle): Route {
  const route = matchRoute(pathname);
  if (route.kind !== 'tenant') return route;
  const check = checkSlugStyle(route.tenant, style);
  return check.ok ? route : { kind: 'invalid_tenant', tenant: route.tenant, reason: check.reason };
}

export function routeOf(pathname: string | undefined, state: SandboxState): Route {
  if (pathname === undefined) return { kind: 'unknown' };
  return state.routes.get(pathname) ?? styledRoute(pathname, state.dialect.slug);
}

/** A platform sub-path ending in `keys` lists the keys, any other the tenants. */
function platformListing(sub: string, data: SandboxData, keys: readonly DemoKey[]): unknown {
  if (sub.split('/').at(-1) === 'keys') return keys.map(keyMetadata);
  const counts = (records: TenantData['records']) => Object.fromEntries(Object.entries(records).map(([name, list]) => [name, list.length]));
  return data.tenants.map(({ info, records }) => ({ ...info, counts: counts(records) }));
}

export function sandboxState(data: SandboxData, keys: readonly DemoKey[], dialect: Dialect): SandboxState {
  const tenants = new Map(
    data.tenants.map(({ info, records }) => {
      const envelopes = Object.fromEntries(TENANT_RESOURCES.map((r) => [r, servedEnvelope(records[r])]));
      return [info.slug, envelopes as Record<TenantResource, Envelope>];
    }),
  );
  const platform = new Map(dialect.platformPaths.map((sub) => [sub, servedEnvelope(platformListing(sub, data, keys))]));
  const paths = [
    '',
    endpointPath('docs'),
    ...dialect.platformPaths.map(platformPath),
    ...[...tenants.keys()].flatMap((slug) => TENANT_RESOURCES.map((r) => tenantResourcePath(slug, r))),
  ].map((path) => `${BASE_PATH}${path}`);
  return {
    tenants,
    keys,
    keysByValue: new Map(keys.map((k) => [k.key, k])),
    dialect,
    index: servedEnvelope(INDEX_PAYLOAD),
    docs: servedEnvelope(docsPayload(dialect)),
    platform,
    routes: new Map(paths.map((path) => [path, styledRoute(path, dialect.slug)])),
  };
}
