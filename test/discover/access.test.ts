/** What needs no key: the host check, index access, bad and missing keys, the body of a 401. */
import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_TENANT } from '../../discover/plan.js';
import { type Reply, discover, noAnswer, ok, plain, raw, referenceApi, refuse } from './fixtures.js';

const api = (overrides: Record<string, Reply>, key?: 'tenant' | 'platform') => referenceApi({ overrides, ...(key ? { key } : {}) });

describe('host check', () => {
  it.each([
    ['no answer', noAnswer(), 'GET /docs without a key -> no answer (connection ECONNREFUSED)'],
    ['an HTML page', plain(502, '<html>Bad Gateway</html>', 'text/html'), 'GET /docs without a key -> HTTP 502, no envelope (text/html)'],
    [
      'a redirect',
      raw(302, '', { location: 'https://login.example.com/' }),
      'GET /docs without a key -> HTTP 302 redirect to https://login.example.com/',
    ],
    ['a 404 envelope', refuse(404, 'not_found'), 'GET /docs without a key -> HTTP 404 not_found'],
  ])('%s at /docs: exit 1, every finding unknown, nothing else sent', async (_name, docs, why) => {
    const { report, calls } = await discover(api({ docs }), { key: true, tenant: 'rowery-nowak' });
    expect(report.exitCode).toBe(1);
    expect(report.host).toEqual({ kind: 'not_api_v1', why: `${why}: not API v1's public catalog (a 2xx with the envelope)` });
    expect(calls.map((c) => c.id)).toEqual(['docs']);
    expect(report.requests.made).toBe(1);
    for (const finding of Object.values(report.findings)) expect(finding).toEqual({ kind: 'unknown', why: `not asked: ${why}` });
  });

  it('the catalog with the envelope: exit 0', async () => {
    const { report } = await discover(referenceApi());
    expect(report.exitCode).toBe(0);
    expect(report.host).toEqual({ kind: 'api_v1', evidence: 'GET /docs without a key -> HTTP 200 with the envelope' });
  });
});

describe('indexAccess', () => {
  it.each([
    ['public', ok({ service: 'x' }), { kind: 'learned', reading: 'public', evidence: 'GET / without a key -> HTTP 200' }],
    [
      'key (401)',
      refuse(401, 'unauthorized'),
      { kind: 'learned', reading: 'key', evidence: 'GET / without a key -> HTTP 401 unauthorized' },
    ],
    ['key (403)', refuse(403, 'forbidden'), { kind: 'learned', reading: 'key', evidence: 'GET / without a key -> HTTP 403 forbidden' }],
    [
      'unknown (404)',
      refuse(404, 'not_found'),
      { kind: 'unknown', why: 'GET / without a key -> HTTP 404 not_found: neither 2xx (public) nor a refusal (401/403, a key is needed)' },
    ],
    [
      'unknown (503)',
      plain(503, 'down'),
      {
        kind: 'unknown',
        why: 'GET / without a key -> HTTP 503, no envelope (text/plain): neither 2xx (public) nor a refusal (401/403, a key is needed)',
      },
    ],
  ])('%s', async (_name, index, expected) => {
    const { report } = await discover(api({ index }));
    expect(report.findings.indexAccess).toEqual(expected);
  });
});

describe('invalidKey and missingKey', () => {
  it('today: 401 unauthorized for both, asked on the placeholder tenant when none is known', async () => {
    const { report, calls } = await discover(referenceApi());
    expect(calls.map((c) => `${c.id} ${c.path} ${c.auth}${c.madeUpKey ? ' made-up' : ''}`)).toEqual([
      'docs /docs none',
      'index / none',
      `invalid-key /tenants/${PLACEHOLDER_TENANT}/clients bearer made-up`,
      `missing-key /tenants/${PLACEHOLDER_TENANT}/clients none`,
    ]);
    expect(report.findings.invalidKey).toEqual({
      kind: 'learned',
      reading: { status: 401, code: 'unauthorized' },
      evidence: `GET /tenants/${PLACEHOLDER_TENANT}/clients with a made-up key -> HTTP 401 unauthorized`,
    });
    expect(report.findings.missingKey).toMatchObject({ kind: 'learned', reading: { status: 401, code: 'unauthorized' } });
  });

  it('a 401 without the envelope: code null, the content type in the evidence', async () => {
    const { report } = await discover(api({ 'invalid-key': plain(401, 'Unauthorized') }), { tenant: 'rowery-nowak' });
    expect(report.findings.invalidKey).toEqual({
      kind: 'learned',
      reading: { status: 401, code: null },
      evidence: 'GET /tenants/rowery-nowak/clients with a made-up key -> HTTP 401, no envelope (text/plain)',
    });
  });

  it('a missing key with its own code', async () => {
    const { report } = await discover(api({ 'missing-key': refuse(401, 'missing_api_key') }), { tenant: 'rowery-nowak' });
    expect(report.findings.missingKey).toMatchObject({ kind: 'learned', reading: { status: 401, code: 'missing_api_key' } });
  });

  it('a 404 on a real tenant is the reading (an API hiding what exists)', async () => {
    const { report } = await discover(api({ 'invalid-key': refuse(404, 'not_found') }), { tenant: 'rowery-nowak' });
    expect(report.findings.invalidKey).toMatchObject({ kind: 'learned', reading: { status: 404, code: 'not_found' } });
  });

  it('a 404 on the placeholder tenant may be about the slug: unknown', async () => {
    const { report } = await discover(api({ 'missing-key': refuse(404, 'not_found') }));
    expect(report.findings.missingKey).toEqual({
      kind: 'unknown',
      why: `GET /tenants/${PLACEHOLDER_TENANT}/clients without a key -> HTTP 404 not_found: the tenant was made up, so this may answer the slug rather than the key; pass --tenant SLUG`,
    });
  });

  it('a 400 the key given also got on that path is about the tenant, not the key', async () => {
    const bad = refuse(400, 'invalid_tenant_slug');
    const { report } = await discover(referenceApi({ key: 'tenant', overrides: { 'resource:clients': bad, 'invalid-key': bad } }), {
      key: true,
      tenant: 'Zły_Slug',
    });
    expect(report.findings.invalidKey).toEqual({
      kind: 'unknown',
      why: 'GET /tenants/Z%C5%82y_Slug/clients with a made-up key -> HTTP 400 invalid_tenant_slug, as the key given got (GET /tenants/Z%C5%82y_Slug/clients with the key -> HTTP 400 invalid_tenant_slug): the answer is about the tenant, not the key',
    });
  });

  it('data for a made-up key is no reading: a breach', async () => {
    const { report } = await discover(api({ 'invalid-key': ok([]) }), { tenant: 'rowery-nowak' });
    expect(report.findings.invalidKey).toEqual({
      kind: 'unknown',
      why: 'GET /tenants/rowery-nowak/clients with a made-up key -> HTTP 200: a made-up key was served data (an authorization breach, or the path is public)',
    });
  });

  it('a 429 or a 5xx is not a refusal', async () => {
    const { report } = await discover(api({ 'invalid-key': refuse(429, 'rate_limited'), 'missing-key': refuse(503, 'internal_error') }), {
      tenant: 'x',
    });
    expect(report.findings.invalidKey).toEqual({
      kind: 'unknown',
      why: 'GET /tenants/x/clients with a made-up key -> HTTP 429 rate_limited: not a refusal',
    });
    expect(report.findings.missingKey).toEqual({
      kind: 'unknown',
      why: 'GET /tenants/x/clients without a key -> HTTP 503 internal_error: not a refusal',
    });
  });
});
