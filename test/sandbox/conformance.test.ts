/**
 * Conformance: every contract endpoint x every demo key (and no key, a malformed header, an
 * unknown key) x both header forms, against a real sandbox on port 0. The expected status and
 * code come from `expected()`, computed from the contract's access rules and key metadata.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { AUTH_SCHEMES, type AuthScheme, ENDPOINTS, type EndpointSpec, KEY_PREFIXES, PLATFORM_SUBPATHS, REQUEST_ID_HEADER, authHeader, endpointPath, joinUrl, parseEnvelope } from '../../api/contract/index.js';
import { JSON_CONTENT_TYPE } from '../../api/contract/server/index.js';
import { DEMO_KEY_SPECS, DEMO_TENANTS, type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { type Caller, type Target, expected } from './expected.js';

interface PathCase extends Target {
  readonly path: string;
}

interface CallerCase {
  readonly label: string;
  readonly caller: Caller;
  readonly headers: (sandbox: RunningSandbox, scheme: AuthScheme) => Record<string, string>;
}

function pathCases(endpoint: EndpointSpec): PathCase[] {
  switch (endpoint.access) {
    case 'platform':
      return [
        ...Object.values(PLATFORM_SUBPATHS).map((sub) => ({ endpoint, path: endpointPath('platform', { platformSub: sub }), exists: true })),
        { endpoint, path: endpointPath('platform', { platformSub: 'nieznane' }), exists: false },
      ];
    case 'tenant':
      return [
        ...DEMO_TENANTS.map((t) => ({ endpoint, tenant: t.slug, path: endpointPath(endpoint.id, { tenant: t.slug }), exists: true })),
        { endpoint, tenant: 'nie-ma-takiego', path: endpointPath(endpoint.id, { tenant: 'nie-ma-takiego' }), exists: false },
      ];
    default:
      return [{ endpoint, path: endpointPath(endpoint.id), exists: true }];
  }
}

function header(scheme: AuthScheme, key: string): Record<string, string> {
  const h = authHeader(scheme, key);
  return { [h.name]: h.value };
}

const CALLERS: CallerCase[] = [
  ...DEMO_KEY_SPECS.map((spec): CallerCase => ({
    label: spec.alias,
    caller: { kind: 'key', keyKind: spec.kind, ...(spec.tenant ? { tenant: spec.tenant } : {}), scopes: spec.scopes, revoked: spec.revoked },
    headers: (sandbox, scheme) => header(scheme, sandbox.key(spec.alias).key),
  })),
  { label: 'no key', caller: { kind: 'none' }, headers: () => ({}) },
  { label: 'unknown key', caller: { kind: 'unknown' }, headers: (_s, scheme) => header(scheme, `${KEY_PREFIXES.test}${'0'.repeat(32)}`) },
  {
    label: 'malformed header',
    caller: { kind: 'malformed' },
    // Bearer form: not "Bearer <key>"; x-api-key form: two headers naming different keys.
    headers: (sandbox, scheme): Record<string, string> =>
      scheme === 'bearer'
        ? { authorization: `Basic ${sandbox.key('platform-test').key}` }
        : { 'x-api-key': sandbox.key('platform-test').key, authorization: `Bearer ${sandbox.key('nowak-test').key}` },
  },
];

const PATHS = ENDPOINTS.flatMap(pathCases);
const MATRIX = PATHS.flatMap((target) => CALLERS.map((caller) => ({ target, caller })));

let sandbox: RunningSandbox;
let checked = 0;

beforeAll(async () => {
  sandbox = await startSandbox();
});

afterAll(async () => {
  await sandbox.close();
  console.log(`conformance matrix: ${ENDPOINTS.length} endpoints, ${PATHS.length} paths x ${CALLERS.length} callers x ${AUTH_SCHEMES.length} header forms = ${checked} requests checked`);
});

describe('sandbox conformance', () => {
  it('covers every contract endpoint and both header forms', () => {
    expect(new Set(PATHS.map((p) => p.endpoint.id))).toEqual(new Set(ENDPOINTS.map((e) => e.id)));
    expect(MATRIX.length * AUTH_SCHEMES.length).toBeGreaterThanOrEqual(ENDPOINTS.length * 7 * 2);
  });

  it.each(MATRIX.map((m) => [`${m.target.path} as ${m.caller.label}`, m] as const))('%s', async (_name, { target, caller }) => {
    for (const scheme of AUTH_SCHEMES) {
      const want = expected(target, caller.caller);
      const res = await request(joinUrl(sandbox.baseUrl, target.path), { headers: caller.headers(sandbox, scheme) });
      const text = await res.body.text();
      const where = `${scheme}: GET ${target.path} as ${caller.label}`;
      expect(res.statusCode, where).toBe(want.status);
      expect(res.headers['content-type'], where).toBe(JSON_CONTENT_TYPE);
      expect(res.headers[REQUEST_ID_HEADER], where).toMatch(/^[0-9a-f-]{36}$/);
      const parsed = parseEnvelope(text, { status: res.statusCode, list: target.endpoint.list });
      expect(parsed, where).toMatchObject({ valid: true });
      if (!parsed.valid) continue;
      if (want.code) expect(parsed.envelope.ok ? undefined : parsed.envelope.error.code, where).toBe(want.code);
      if (parsed.envelope.ok && target.endpoint.list) expect((parsed.envelope.data as unknown[]).length, where).toBeGreaterThan(0);
      checked += 1;
    }
  });
});
