/** With a key: /platform/ paths, the key's kind, the platform refusal, readable resources, the scope refusal, the budget. */
import { describe, expect, it } from 'vitest';
import { MAX_PLATFORM_CALLS } from '../../diagnose/index.js';
import { MAX_REQUESTS } from '../../discover/index.js';
import { presentsKey } from '../../discover/plan.js';
import { DOCS, type Reply, discover, noAnswer, ok, refuse, referenceApi } from './fixtures.js';

const NEEDS_KEY = 'needs a key (--key-env VAR, --key-file PATH or --key-stdin)';

describe('platformPaths', () => {
  it('the concrete sub-paths /docs lists; a template names none', async () => {
    const { report } = await discover(referenceApi());
    expect(report.findings.platformPaths).toEqual({
      kind: 'learned',
      reading: ['tenants', 'keys'],
      evidence: 'GET /docs without a key lists /platform/tenants, /platform/keys',
    });
  });

  it('unknown when /docs lists none, and no platform path is asked', async () => {
    const { report, calls } = await discover(referenceApi({ key: 'tenant', overrides: { docs: ok({ endpoints: DOCS.endpoints }) } }), {
      key: true,
    });
    expect(report.findings.platformPaths).toMatchObject({
      kind: 'unknown',
      why: expect.stringMatching(
        /^\/docs lists no \/platform\/ sub-path as a path or in a sentence, and discovery does not guess one .*; pass --platform-path PATH$/,
      ),
    });
    expect(calls.some((c) => c.endpoint === 'platform')).toBe(false);
    expect(report.findings.keyKind).toEqual({
      kind: 'unknown',
      why: 'no /platform/ sub-path to ask: /docs lists none (pass --platform-path PATH)',
    });
  });
});

describe('platformPaths a sentence names, or --platform-path gives (20.11)', () => {
  it('a path named inside a sentence of /docs is learned and asked', async () => {
    const docs = ok({ about: 'Platform keys may call /platform/shops to list every shop; /platform/* is reserved for them.' });
    const { report, calls } = await discover(referenceApi({ key: 'platform', overrides: { docs } }), { key: true });
    expect(report.findings.platformPaths).toEqual({
      kind: 'learned',
      reading: ['shops'],
      evidence: 'GET /docs without a key lists /platform/shops',
    });
    expect(calls.filter((c) => c.endpoint === 'platform').map((c) => c.path)).toEqual(['/platform/shops']);
    expect(report.findings.keyKind).toMatchObject({ kind: 'learned', reading: 'platform' });
  });

  it('--platform-path is asked instead of what /docs lists, and reported as given', async () => {
    const { report, calls } = await discover(referenceApi({ key: 'platform' }), { key: true, platformPaths: ['tenants'] });
    expect(calls.filter((c) => c.endpoint === 'platform').map((c) => c.path)).toEqual(['/platform/tenants']);
    expect(report.findings.platformPaths).toEqual({
      kind: 'learned',
      reading: ['tenants'],
      evidence: '--platform-path /platform/tenants (/docs lists /platform/tenants, /platform/keys)',
    });
  });

  it('a 404 on a given path /docs does not list tells nothing of the key (a wrong path, or a hidden one)', async () => {
    const { report } = await discover(referenceApi({ key: 'platform', overrides: { 'platform:shops': refuse(404, 'not_found') } }), {
      key: true,
      platformPaths: ['shops'],
    });
    expect(report.findings.keyKind).toEqual({
      kind: 'unknown',
      why: "GET /platform/shops answered HTTP 404 and /docs does not list that path: a wrong path answers so, and so does an API that hides /platform/ from tenant keys, so the key's kind is undetermined (give a sub-path /docs lists, or one a platform key reads)",
    });
  });
});

describe('keyKind and platformRefusal', () => {
  it('without a key: both need one, and the report lists what does', async () => {
    const { report, calls } = await discover(referenceApi());
    expect(calls.some((c) => presentsKey(c))).toBe(false);
    expect(report.findings.keyKind).toEqual({ kind: 'unknown', why: NEEDS_KEY });
    expect(report.findings.platformRefusal).toEqual({ kind: 'unknown', why: NEEDS_KEY });
    expect(report.needKey).toEqual(['keyKind', 'platformRefusal', 'readableResources', 'scopeRefusal', 'rateLimitHeaders']);
    expect(report.needTenant).toEqual(['readableResources', 'scopeRefusal']);
  });

  it('a platform key: a listed path answers 200; the platform refusal needs a tenant key', async () => {
    const { report } = await discover(referenceApi({ key: 'platform' }), { key: true });
    expect(report.findings.keyKind).toEqual({
      kind: 'learned',
      reading: 'platform',
      evidence: 'GET /platform/tenants with the key -> HTTP 200',
    });
    expect(report.findings.platformRefusal).toEqual({
      kind: 'unknown',
      why: 'needs a tenant key: the key given is a platform key (GET /platform/tenants with the key -> HTTP 200)',
    });
  });

  it('a tenant key: refused on /platform/ while GET / (which needs a key) served it', async () => {
    const { report } = await discover(referenceApi({ key: 'tenant' }), { key: true });
    const evidence =
      'GET /platform/tenants with the key -> HTTP 403 platform_key_required, while the key is valid: GET / with the key -> HTTP 200';
    expect(report.findings.keyKind).toEqual({ kind: 'learned', reading: 'tenant', evidence });
    expect(report.findings.platformRefusal).toEqual({ kind: 'learned', reading: { status: 403, code: 'platform_key_required' }, evidence });
  });

  it("a public index proves nothing; a refusal unlike a made-up key's still tells a tenant key", async () => {
    const { report } = await discover(referenceApi({ key: 'tenant', overrides: { index: ok({}) } }), { key: true });
    expect(report.findings.keyKind).toEqual({
      kind: 'learned',
      reading: 'tenant',
      evidence: 'GET /platform/tenants with the key -> HTTP 403 platform_key_required, not what a made-up key gets (HTTP 401 unauthorized)',
    });
  });

  it('a tenant key refused with 401 on /platform/: told apart by a resource it reads', async () => {
    const api = referenceApi({
      key: 'tenant',
      overrides: { index: ok({}), 'platform:tenants': refuse(401, 'unauthorized'), 'platform:keys': refuse(401, 'unauthorized') },
    });
    const { report } = await discover(api, { key: true, tenant: 'rowery-nowak' });
    expect(report.findings.platformRefusal).toMatchObject({ kind: 'learned', reading: { status: 401, code: 'unauthorized' } });
    expect(report.findings.keyKind).toMatchObject({
      evidence: expect.stringContaining('while the key is valid: GET /tenants/rowery-nowak/clients with the key -> HTTP 200'),
    });
  });

  it('a rejected key: refused like a made-up key everywhere, so its kind is unknown', async () => {
    const { report } = await discover(referenceApi({ key: 'rejected' }), { key: true, tenant: 'rowery-nowak' });
    const why =
      'GET /platform/tenants with the key -> HTTP 401 unauthorized: what a rejected key would get, and no answer proves the key valid';
    expect(report.findings.keyKind).toEqual({ kind: 'unknown', why });
    expect(report.findings.platformRefusal).toEqual({ kind: 'unknown', why });
    expect(report.findings.readableResources).toMatchObject({
      kind: 'unknown',
      why: expect.stringMatching(/every answer is what a rejected key gets$/),
    });
    expect(report.findings.rateLimitHeaders).toMatchObject({
      kind: 'unknown',
      why: expect.stringMatching(/no answer proves the key valid/),
    });
  });

  it('a rejected key without --tenant: the reason suggests reading with one', async () => {
    const { report } = await discover(referenceApi({ key: 'rejected' }), { key: true });
    expect(report.findings.keyKind).toMatchObject({
      kind: 'unknown',
      why: expect.stringMatching(/no answer proves the key valid \(pass --tenant SLUG to read with it\)$/),
    });
  });

  it('no answer on /platform/ tells nothing', async () => {
    const { report } = await discover(
      referenceApi({ key: 'tenant', overrides: { 'platform:tenants': noAnswer(), 'platform:keys': noAnswer() } }),
      { key: true },
    );
    expect(report.findings.keyKind).toEqual({
      kind: 'unknown',
      why: 'GET /platform/tenants with the key -> no answer (connection ECONNREFUSED): not a refusal, so it tells nothing of the key',
    });
  });
});

describe('readableResources and scopeRefusal', () => {
  it('without --tenant: both need one', async () => {
    const { report } = await discover(referenceApi({ key: 'tenant' }), { key: true });
    expect(report.findings.readableResources).toEqual({ kind: 'unknown', why: 'needs --tenant SLUG' });
    expect(report.needTenant).toEqual(['readableResources', 'scopeRefusal']);
    expect(report.needKey).toEqual([]);
  });

  it('a key without the logs scope: three resources, and the scope refusal', async () => {
    const { report } = await discover(referenceApi({ key: 'nologs' }), { key: true, tenant: 'rowery-nowak' });
    expect(report.findings.readableResources).toEqual({
      kind: 'learned',
      reading: ['clients', 'bikes', 'repairs'],
      evidence:
        'GET /tenants/rowery-nowak/<resource> with the key: clients HTTP 200, bikes HTTP 200, repairs HTTP 200, logs HTTP 403 insufficient_scope',
    });
    expect(report.findings.scopeRefusal).toEqual({
      kind: 'learned',
      reading: { status: 403, code: 'insufficient_scope' },
      evidence: 'GET /tenants/rowery-nowak/logs with the key -> HTTP 403 insufficient_scope',
    });
  });

  it('a scope refused under another code or status is still the scope', async () => {
    const { report } = await discover(referenceApi({ key: 'tenant', overrides: { 'resource:logs': refuse(404, 'not_found') } }), {
      key: true,
      tenant: 'rowery-nowak',
    });
    expect(report.findings.scopeRefusal).toMatchObject({ kind: 'learned', reading: { status: 404, code: 'not_found' } });
  });

  it('every resource read: not observed', async () => {
    const { report } = await discover(referenceApi({ key: 'tenant' }), { key: true, tenant: 'rowery-nowak' });
    expect(report.findings.readableResources).toMatchObject({ reading: ['clients', 'bikes', 'repairs', 'logs'] });
    expect(report.findings.scopeRefusal).toEqual({
      kind: 'unknown',
      why: 'not observed: GET /tenants/rowery-nowak/<resource> with the key: clients HTTP 200, bikes HTTP 200, repairs HTTP 200, logs HTTP 200',
    });
  });

  it("another tenant's path: a mismatch is not a scope refusal", async () => {
    const { report } = await discover(referenceApi({ key: 'tenant' }), { key: true, tenant: 'serwis-kowalski' });
    expect(report.findings.readableResources).toMatchObject({ kind: 'learned', reading: [] });
    expect(report.findings.scopeRefusal).toMatchObject({
      kind: 'unknown',
      why: expect.stringMatching(/^not observed: .*clients HTTP 403 tenant_key_tenant_mismatch/),
    });
  });

  it('one refusal for all four, nothing read: about the tenant, not a scope', async () => {
    const gone = refuse(404, 'not_found');
    const overrides: Record<string, Reply> = {
      'resource:clients': gone,
      'resource:bikes': gone,
      'resource:repairs': gone,
      'resource:logs': gone,
    };
    const { report } = await discover(referenceApi({ key: 'platform', overrides }), { key: true, tenant: 'nie-ma' });
    expect(report.findings.scopeRefusal).toMatchObject({
      kind: 'unknown',
      why: expect.stringMatching(/one refusal for every resource is about the tenant or the key, not a scope$/),
    });
  });
});

describe('the request budget', () => {
  it(`never more than ${MAX_REQUESTS} GETs, at most ${MAX_PLATFORM_CALLS} platform paths, tenant listings first`, async () => {
    const listed = ['audit', 'keys', 'stats', 'admin/tenants', 'billing'];
    const docs = ok({ platformPaths: listed.map((sub) => `/platform/${sub}`) });
    const { report, calls } = await discover(referenceApi({ key: 'platform', overrides: { docs } }), { key: true, tenant: 'rowery-nowak' });
    expect(calls.length).toBe(MAX_REQUESTS);
    expect(report.requests).toEqual({ made: MAX_REQUESTS, max: MAX_REQUESTS, stopped: null });
    expect(calls.filter((c) => c.endpoint === 'platform').map((c) => c.path)).toEqual(['/platform/admin/tenants', '/platform/audit']);
    expect(report.findings.platformPaths).toMatchObject({ reading: listed });
    expect(MAX_REQUESTS).toBe(11);
  });

  it('a tenant listed by a platform key is used for the made-up-key and no-key calls', async () => {
    const { calls } = await discover(referenceApi({ key: 'platform', tenants: ['cykl-gdansk'] }), { key: true });
    expect(calls.filter((c) => !presentsKey(c) && c.endpoint === 'clients').map((c) => c.path)).toEqual([
      '/tenants/cykl-gdansk/clients',
      '/tenants/cykl-gdansk/clients',
    ]);
  });
});
