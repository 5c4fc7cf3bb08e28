/**
 * Conformance, in every dialect preset (and one mixed dialect): every contract endpoint x every
 * demo key (and no key, a malformed header, an unknown key) x both header forms, against a real
 * sandbox on port 0 with a rate limit far above what the matrix sends. The expected status,
 * code, body form and rate-limit headers come from `expected()`, computed from the contract's
 * access rules, the key metadata and the dialect's settings as written in dialect-presets.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import {
  AUTH_SCHEMES,
  type AuthScheme,
  ENDPOINTS,
  type EndpointSpec,
  KEY_PREFIXES,
  REQUEST_ID_HEADER,
  authHeader,
  endpointPath,
  joinUrl,
  parseEnvelope,
} from '../../api/contract/index.js';
import { JSON_CONTENT_TYPE } from '../../api/contract/server/index.js';
import type { DialectSettings } from '../../sandbox/dialect/index.js';
import { DEMO_KEY_SPECS, DEMO_TENANTS, type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { PRESET_TABLE, demoSlugIn } from '../helpers/dialect-presets.js';
import { ALL_RATE_LIMIT_HEADERS, type Caller, type Target, expected, expectedRateHeaders } from './expected.js';

interface PathCase extends Target {
  readonly path: string;
  /** For a served platform path: which listing its data must be. */
  readonly listing?: 'keys' | 'tenants';
}

interface CallerCase {
  readonly label: string;
  readonly caller: Caller;
  readonly headers: (sandbox: RunningSandbox, scheme: AuthScheme) => Record<string, string>;
}

/** A slug in the wrong style for each style (`any` has none: it gets a valid unknown one instead). */
const OFF_STYLE: Readonly<Record<DialectSettings['slug'], string | undefined>> = {
  kebab: 'rowery_nowak',
  snake: 'rowery-nowak',
  any: undefined,
};

function platformCases(endpoint: EndpointSpec, d: DialectSettings): PathCase[] {
  const unserved = ['tenants', 'keys', 'nieznane'].filter((sub) => !d.platformPaths.includes(sub));
  return [
    ...d.platformPaths.map((sub) => ({
      endpoint,
      path: endpointPath('platform', { platformSub: sub }),
      exists: true,
      listing: sub.split('/').at(-1) === 'keys' ? ('keys' as const) : ('tenants' as const),
    })),
    ...unserved.map((sub) => ({ endpoint, path: endpointPath('platform', { platformSub: sub }), exists: false })),
  ];
}

function tenantCases(endpoint: EndpointSpec, d: DialectSettings): PathCase[] {
  const at = (tenant: string, exists: boolean, inStyle = true): PathCase => ({
    endpoint,
    tenant,
    path: endpointPath(endpoint.id, { tenant }),
    exists,
    inStyle,
  });
  const off = OFF_STYLE[d.slug];
  return [
    ...DEMO_TENANTS.map((t) => at(demoSlugIn(d.slug, t.slug), true)),
    at(demoSlugIn(d.slug, 'nie-ma-takiego'), false),
    off === undefined ? at('Rowery.Nowak', false) : at(off, false, false),
  ];
}

function pathCases(endpoint: EndpointSpec, d: DialectSettings): PathCase[] {
  if (endpoint.access === 'platform') return platformCases(endpoint, d);
  if (endpoint.access === 'tenant') return tenantCases(endpoint, d);
  return [{ endpoint, path: endpointPath(endpoint.id), exists: true }];
}

function header(scheme: AuthScheme, key: string): Record<string, string> {
  const h = authHeader(scheme, key);
  return { [h.name]: h.value };
}

function callers(d: DialectSettings): CallerCase[] {
  return [
    ...DEMO_KEY_SPECS.map((spec): CallerCase => ({
      label: spec.alias,
      caller: {
        kind: 'key',
        keyKind: spec.kind,
        ...(spec.tenant ? { tenant: demoSlugIn(d.slug, spec.tenant) } : {}),
        scopes: spec.scopes,
        revoked: spec.revoked,
      },
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
}

const DIALECTS: readonly (readonly [string, DialectSettings])[] = [
  ...Object.entries(PRESET_TABLE),
  [
    'legacy,index=public,unauthorized-status=403,scope-refusal=not_found',
    { ...PRESET_TABLE['legacy']!, index: 'public', unauthorizedStatus: 403, scopeRefusal: 'not_found' },
  ],
];

let checked = 0;
afterAll(() => {
  console.log(`conformance matrix: ${DIALECTS.length} dialects, ${checked} requests checked`);
});

describe.each(DIALECTS)('sandbox conformance in dialect %s', (name, settings) => {
  const paths = ENDPOINTS.flatMap((e) => pathCases(e, settings));
  const matrix = paths.flatMap((target) => callers(settings).map((caller) => ({ target, caller })));
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ dialect: name, rateLimit: '1000000/1m' });
  });
  afterAll(() => sandbox.close());

  it('runs the dialect as written, over every contract endpoint and both header forms', () => {
    expect(sandbox.dialect).toMatchObject(settings);
    expect(sandbox.tenants).toEqual(DEMO_TENANTS.map((t) => demoSlugIn(settings.slug, t.slug)));
    expect(new Set(paths.map((p) => p.endpoint.id))).toEqual(new Set(ENDPOINTS.map((e) => e.id)));
    expect(matrix.length * AUTH_SCHEMES.length).toBeGreaterThanOrEqual(ENDPOINTS.length * 7 * 2);
  });

  it.each(matrix.map((m) => [`${m.target.path} as ${m.caller.label}`, m] as const))('%s', async (_name, { target, caller }) => {
    const want = expected(target, caller.caller, settings);
    for (const scheme of AUTH_SCHEMES) {
      const res = await request(joinUrl(sandbox.baseUrl, target.path), { headers: caller.headers(sandbox, scheme) });
      const text = await res.body.text();
      const where = `${name} ${scheme}: GET ${target.path} as ${caller.label}`;
      expect(res.statusCode, where).toBe(want.status);
      expect(res.headers[REQUEST_ID_HEADER], where).toMatch(/^[0-9a-f-]{36}$/);
      const rateHeaders = ALL_RATE_LIMIT_HEADERS.filter((h) => res.headers[h] !== undefined);
      expect(rateHeaders.sort(), where).toEqual(expectedRateHeaders(settings, want.counted).sort());
      checked += 1;
      expect(res.headers['content-type'], where).toBe(JSON_CONTENT_TYPE);
      const parsed = parseEnvelope(text, { status: res.statusCode, list: target.endpoint.list });
      expect(parsed, where).toMatchObject({ valid: true });
      if (!parsed.valid) continue;
      expect(parsed.envelope.ok ? undefined : parsed.envelope.error.code, where).toBe(want.code);
      if (parsed.envelope.ok && target.endpoint.list) expect((parsed.envelope.data as unknown[]).length, where).toBeGreaterThan(0);
      if (parsed.envelope.ok && target.listing) {
        const field = target.listing === 'keys' ? 'alias' : 'slug';
        expect(
          (parsed.envelope.data as Record<string, unknown>[]).every((item) => typeof item[field] === 'string'),
          where,
        ).toBe(true);
      }
    }
  });
});
