import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ENDPOINTS, KEY_PREFIXES, TENANT_RESOURCES, authHeader, endpointPath, platformPath } from '../../api/contract/index.js';
import { DEMO_TENANTS, type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { REPAIR_STATES, demoData } from '../../sandbox/demo-data.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

async function getData(path: string, alias?: string): Promise<unknown> {
  const h = alias ? authHeader('x-api-key', sandbox.key(alias).key) : undefined;
  const res = await request(`${sandbox.baseUrl}${path}`, { headers: h ? { [h.name]: h.value } : {} });
  const body = (await res.body.json()) as { ok: boolean; data?: unknown };
  expect(res.statusCode, path).toBe(200);
  return body.data;
}

describe('demo data', () => {
  it('is deterministic: the same shops and records on every start', () => {
    expect(JSON.stringify(demoData())).toBe(JSON.stringify(demoData()));
  });

  it('has at least 3 tenants with several records of every resource', () => {
    const data = demoData();
    expect(data.tenants.length).toBeGreaterThanOrEqual(3);
    for (const tenant of data.tenants) {
      for (const resource of TENANT_RESOURCES)
        expect(tenant.records[resource].length, `${tenant.info.slug} ${resource}`).toBeGreaterThanOrEqual(3);
    }
    expect(sandbox.tenants).toEqual(DEMO_TENANTS.map((t) => t.slug));
  });

  it('looks like Polish repair shops: bike brands, repair states, PLN costs', () => {
    const records = demoData().tenants.flatMap((t) => [...t.records.bikes, ...t.records.repairs]) as Record<string, unknown>[];
    const brands = new Set(records.map((r) => r['brand']).filter(Boolean));
    expect([...brands].some((b) => ['Kross', 'Romet', 'Trek', 'Giant', 'Merida', 'Orbea'].includes(String(b)))).toBe(true);
    const repairs = records.filter((r) => 'state' in r);
    expect(new Set(repairs.map((r) => r['state']))).toEqual(new Set(REPAIR_STATES));
    expect(repairs.every((r) => r['currency'] === 'PLN' && typeof r['costPln'] === 'number')).toBe(true);
  });

  it('issues fresh random keys per start, prefixed by environment', async () => {
    const other = await startSandbox();
    await other.close();
    for (const key of sandbox.keys) {
      expect(key.key.startsWith(KEY_PREFIXES[key.environment])).toBe(true);
      expect(key.key).not.toBe(other.key(key.alias).key);
    }
    expect(new Set(sandbox.keys.map((k) => k.environment))).toEqual(new Set(['test', 'production']));
  });

  it('/platform/keys lists metadata and last 4 characters, never a key value', async () => {
    const keys = (await getData(platformPath('keys'), 'platform-test')) as Record<string, unknown>[];
    expect(keys.map((k) => k['alias'])).toEqual(sandbox.keys.map((k) => k.alias));
    const text = JSON.stringify(keys);
    for (const key of sandbox.keys) {
      expect(text).not.toContain(key.key);
      expect(keys.find((k) => k['alias'] === key.alias)).toMatchObject({
        last4: key.key.slice(-4),
        revoked: key.revoked,
        environment: key.environment,
      });
    }
  });

  it('/platform/tenants lists the tenants with their record counts', async () => {
    const tenants = (await getData(platformPath('tenants'), 'platform-prod')) as Record<string, unknown>[];
    expect(tenants.map((t) => t['slug'])).toEqual(sandbox.tenants);
    expect(tenants[0]).toMatchObject({ name: expect.any(String), city: expect.any(String), counts: { clients: expect.any(Number) } });
  });

  it('/docs is the contract endpoint catalog plus the authorization model', async () => {
    const docs = (await getData(endpointPath('docs'))) as {
      endpoints: { method: string; path: string; access: string }[];
      authorization: { rules: string[] };
    };
    expect(docs.endpoints.map((e) => [e.method, e.path, e.access])).toEqual(ENDPOINTS.map((e) => [e.method, e.pathTemplate, e.access]));
    expect(docs.authorization.rules.length).toBeGreaterThan(0);
  });

  it('/ links to the documentation', async () => {
    expect(await getData('/', 'gdansk-test')).toMatchObject({ docs: '/api/v1/docs' });
  });

  it('records each request with its key alias, never the key', async () => {
    sandbox.clearRequests();
    await getData(endpointPath('clients', { tenant: 'rowery-nowak' }), 'nowak-prod');
    const h = authHeader('bearer', sandbox.key('nowak-revoked-test').key);
    await (await request(`${sandbox.baseUrl}/`, { headers: { [h.name]: h.value } })).body.dump();
    await (await request(`${sandbox.baseUrl}/docs`, { method: 'POST' })).body.dump();
    expect(sandbox.requests()).toEqual([
      { at: expect.any(Number), method: 'GET', path: '/api/v1/tenants/rowery-nowak/clients', keyAlias: 'nowak-prod', status: 200 },
      { at: expect.any(Number), method: 'GET', path: '/api/v1/', keyAlias: 'nowak-revoked-test', status: 401 },
      { at: expect.any(Number), method: 'POST', path: '/api/v1/docs', status: 405 },
    ]);
    sandbox.clearRequests();
    expect(sandbox.requests()).toEqual([]);
  });
});
