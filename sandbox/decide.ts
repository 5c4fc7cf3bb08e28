/**
 * The sandbox's answer to one request, as a pure function of the request and the sandbox
 * state: routing, authentication, access rules, rate limiting and the data. I/O lives in
 * server.ts; faults are layered on top in faults/.
 */
import { BASE_PATH, ERROR_CODES, type Envelope, type ErrorCode, scopeForResource } from '../api/contract/index.js';
import { SANDBOX_PLATFORM_PATHS as PLATFORM_SUBPATHS } from './defaults.js';
import { ALLOWED_METHODS, ERROR_STATUS, type Route, errorEnvelope, matchRoute, readPresentedKey, successEnvelope } from '../api/contract/server/index.js';
import { docsPayload, indexPayload } from './docs.js';
import { type DemoKey, keyMetadata } from './keys.js';
import { messageFor } from './messages.js';
import type { TenantData } from './model.js';
import type { RateVerdict } from './rate-limit.js';

export interface SandboxState {
  readonly tenants: ReadonlyMap<string, TenantData>;
  readonly keys: readonly DemoKey[];
  readonly keysByValue: ReadonlyMap<string, DemoKey>;
}

export interface Reply {
  readonly status: number;
  readonly envelope: Envelope;
  readonly headers: Readonly<Record<string, string>>;
  readonly keyAlias?: string;
}

export interface DecideInput {
  readonly method: string;
  /** Path without query; undefined when the request target could not be read. */
  readonly pathname: string | undefined;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Fault `isolation-breach`: tenant keys may read other tenants. */
  readonly breach: boolean;
  /** Counts one request against a key; undefined when rate limiting is off. */
  readonly rateLimit?: (key: DemoKey) => RateVerdict;
}

type Authentication =
  | { readonly ok: true; readonly key: DemoKey }
  /** `alias` is known when a revoked key was presented: the request log names it. */
  | { readonly ok: false; readonly detail: string; readonly alias?: string };

function fail(code: ErrorCode, detail?: string, headers: Record<string, string> = {}, keyAlias?: string): Reply {
  return { status: ERROR_STATUS[code], envelope: errorEnvelope(code, messageFor(code, detail)), headers, ...(keyAlias ? { keyAlias } : {}) };
}

function authenticate(headers: DecideInput['headers'], state: SandboxState): Authentication {
  const presented = readPresentedKey(headers);
  if (presented.kind === 'none') return { ok: false, detail: 'Nie podano klucza (nagłówek x-api-key lub Authorization: Bearer).' };
  if (presented.kind === 'malformed') return { ok: false, detail: 'Nagłówek z kluczem ma nieprawidłowy format.' };
  const key = state.keysByValue.get(presented.key);
  if (!key) return { ok: false, detail: 'Nieznany klucz.' };
  if (key.revoked) return { ok: false, detail: 'Klucz został unieważniony.', alias: key.alias };
  return { ok: true, key };
}

type KeyedRoute = Extract<Route, { kind: 'index' | 'platform' | 'tenant' }>;

/** The access rules of spec §4-5, in the order the spec implies: tenant match before scope. */
function accessDenied(route: KeyedRoute, key: DemoKey, breach: boolean): ErrorCode | undefined {
  if (route.kind === 'index') return undefined;
  if (route.kind === 'platform') {
    if (key.kind !== 'platform') return ERROR_CODES.platformKeyRequired;
    return key.scopes.includes('platform') ? undefined : ERROR_CODES.insufficientScope;
  }
  if (key.kind === 'tenant' && key.tenant !== route.tenant && !breach) return ERROR_CODES.tenantMismatch;
  return key.scopes.includes(scopeForResource(route.resource)) ? undefined : ERROR_CODES.insufficientScope;
}

function platformData(subpath: string, state: SandboxState): unknown {
  if (subpath === PLATFORM_SUBPATHS.tenants) {
    return [...state.tenants.values()].map(({ info, records }) => ({
      ...info,
      counts: Object.fromEntries(Object.entries(records).map(([name, list]) => [name, list.length])),
    }));
  }
  if (subpath === PLATFORM_SUBPATHS.keys) return state.keys.map(keyMetadata);
  return undefined;
}

function routeData(route: KeyedRoute, state: SandboxState): { found: true; data: unknown } | { found: false; detail: string } {
  if (route.kind === 'index') return { found: true, data: indexPayload() };
  if (route.kind === 'platform') {
    const data = platformData(route.subpath, state);
    return data === undefined ? { found: false, detail: `Nieznana ścieżka platformy: /platform/${route.subpath}.` } : { found: true, data };
  }
  const tenant = state.tenants.get(route.tenant);
  if (!tenant) return { found: false, detail: `Nie ma najemcy "${route.tenant}".` };
  return { found: true, data: tenant.records[route.resource] };
}

export function decide(input: DecideInput, state: SandboxState): Reply {
  if (!(ALLOWED_METHODS as readonly string[]).includes(input.method)) {
    return fail(ERROR_CODES.methodNotAllowed, undefined, { allow: ALLOWED_METHODS.join(', ') });
  }
  const route: Route = input.pathname === undefined ? { kind: 'unknown' } : matchRoute(input.pathname);
  if (route.kind === 'unknown') return fail(ERROR_CODES.notFound, `Endpointy API v1 zaczynają się od ${BASE_PATH}/ (zob. ${BASE_PATH}/docs).`);
  if (route.kind === 'invalid_tenant') return fail(ERROR_CODES.invalidTenantSlug);
  if (route.kind === 'docs') return { status: 200, envelope: successEnvelope(docsPayload()), headers: {} };
  const auth = authenticate(input.headers, state);
  if (!auth.ok) return fail(ERROR_CODES.unauthorized, auth.detail, {}, auth.alias);
  const { key } = auth;
  const verdict = input.rateLimit?.(key);
  const limitHeaders = verdict?.headers ?? {};
  if (verdict && !verdict.allowed) return fail(ERROR_CODES.rateLimited, undefined, { ...limitHeaders }, key.alias);
  const denied = accessDenied(route, key, input.breach);
  if (denied) return fail(denied, undefined, { ...limitHeaders }, key.alias);
  const result = routeData(route, state);
  if (!result.found) return fail(ERROR_CODES.notFound, result.detail, { ...limitHeaders }, key.alias);
  return { status: 200, envelope: successEnvelope(result.data), headers: limitHeaders, keyAlias: key.alias };
}
