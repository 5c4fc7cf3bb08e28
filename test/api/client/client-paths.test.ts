/** Query parameters, the generic get() and the path guard (client level and pure). */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, isNotFoundError } from '../../../api/client/index.js';
import { checkSubPath, staysInside } from '../../../api/client/paths.js';
import { encodeQuery, isCredentialName } from '../../../api/client/query.js';
import { BASE_URL, KEY, SECRET, captureLogger, envelopeError, envelopeOk, mockAgent } from './helpers.js';

const agents: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

function setup() {
  const { agent, pool } = mockAgent();
  agents.push(agent);
  const { logger, lines } = captureLogger();
  const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant: 'rowery-nowak', dispatcher: agent, logger });
  const seen: Array<{ path: string; auth: string | undefined }> = [];
  const record = (path: string, status = 200, body: object = envelopeOk([])) =>
    pool.intercept({ path }).reply(status, (opts) => {
      seen.push({ path: opts.path, auth: (opts.headers as Record<string, string>)['authorization'] });
      return body;
    });
  return { pool, client, lines, seen, record };
}

describe('query option', () => {
  it('encodes names and values on list calls, get and platform.get; arrays repeat the name', async () => {
    const { client, seen, record } = setup();
    record('/api/v1/tenants/rowery-nowak/repairs?status=w%20naprawie&city=Gda%C5%84sk&page=2&tag=a&tag=b%26c&open=true');
    record('/api/v1/tenants/rowery-nowak/repairs/17?fields=id%2Cstatus', 200, envelopeOk({ id: 17 }));
    record('/api/v1/platform/tenants?limit=5', 200, envelopeOk({}));
    await client.listRepairs({ query: { status: 'w naprawie', city: 'Gdańsk', page: 2, tag: ['a', 'b&c'], open: true, skipped: undefined } });
    await client.get('/tenants/rowery-nowak/repairs/17', { query: new URLSearchParams({ fields: 'id,status' }) });
    await client.platform.get('tenants', { query: { limit: 5 } });
    expect(seen.map((s) => s.path)).toHaveLength(3);
    expect(seen.every((s) => s.auth === `Bearer ${SECRET}`)).toBe(true);
  });

  it.each(['api_key', 'apiKey', 'X-Api-Key', 'key', 'token', 'access_token', 'Authorization', 'password', 'client_secret'])(
    'refuses the credential-like name %s without sending anything',
    async (name) => {
      const { client, seen } = setup();
      await expect(client.listClients({ query: { [name]: 'v' } })).rejects.toThrow(new RegExp(`"${name}" looks like a credential: a key never goes in a URL`));
      expect(seen).toEqual([]);
    },
  );

  it('allows cursor-style names, refuses the key as a value and non-text values, never echoing them', async () => {
    expect(['page_token', 'pageToken', 'cursor', 'next_token', 'keyword', 'monkey'].filter(isCredentialName)).toEqual([]);
    const { client } = setup();
    const error = (await client.listClients({ query: { q: `x${SECRET}` } }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/"q" holds the API key/);
    expect(error.message).not.toContain(SECRET);
    await expect(client.listClients({ query: { when: { not: 'text' } as never } })).rejects.toThrow(/"when" must be a string/);
    await expect(client.listClients({ query: { n: Number.NaN } })).rejects.toThrow(/"n" must be a string, finite number/);
    expect(encodeQuery({})).toBeUndefined();
    expect(encodeQuery({ 'a b': 'ą/?' })).toBe('a%20b=%C4%85%2F%3F');
  });
});

describe('get(path) stays inside {base_url}', () => {
  it('reads any keyed path, classifies a 404 and a tenant list by the route', async () => {
    const { client, seen, record } = setup();
    record('/api/v1/tenants/rowery-nowak/repairs/17', 200, envelopeOk({ id: 17 }));
    record('/api/v1/tenants/rowery-nowak/repairs/18', 404, envelopeError('not_found', 'Brak'));
    record('/api/v1/tenants/serwis-kowalski/clients', 200, envelopeOk({ not: 'a list' }));
    record('/api/v1/docs', 200, envelopeOk({}));
    expect(await client.get('tenants/rowery-nowak/repairs/17')).toEqual({ id: 17 });
    const missing = await client.get('/tenants/rowery-nowak/repairs/18').catch((e: unknown) => e);
    expect(isNotFoundError(missing) && missing.tenant).toBe('rowery-nowak');
    await expect(client.get('/tenants/serwis-kowalski/clients')).rejects.toMatchObject({ name: 'EnvelopeError', problem: 'data_not_array' });
    await client.get('/docs');
    expect(seen.at(-1)).toEqual({ path: '/api/v1/docs', auth: undefined });
  });

  it.each([
    ['../tenants/x/clients', /a "\." or "\.\." segment/],
    ['/tenants/x/../../admin', /a "\." or "\.\." segment/],
    ['tenants/%2e%2e/%2E%2e/x', /a "\." or "\.\." segment \(also as %2E/],
    ['tenants/./x', /a "\." or "\.\." segment/],
    ['/tenants/t/..;/x', /before a ";"/],
    ['https://evil.test/api/v1/docs', /absolute URL/],
    ['//evil.test/x', /"\/\/"/],
    ['tenants//x', /"\/\/"/],
    ['tenants\\..\\x', /backslash/],
    ['tenants/x%2F..%2Fy', /encoded "\/"/],
    ['tenants/x%252fy', /encoded "\/"/],
    ['tenants/x\t/y', /control character/],
    ['docs?x=1', /pass \{ query \}/],
    ['/api/v1/docs', /starts with \/api\/v1/],
    ['', /is empty/],
  ])('refuses %j before sending', async (path, reason) => {
    const { client, seen } = setup();
    await expect(client.get(path)).rejects.toThrow(reason);
    expect(seen).toEqual([]);
  });

  it('platform.get stays inside /platform/ by the same rules', async () => {
    const { client, seen, record } = setup();
    record('/api/v1/platform/admin/tenants', 200, envelopeOk({}));
    await client.platform.get('/admin/tenants');
    for (const bad of ['../tenants/x/clients', 'admin/../../tenants/x', '%2e%2e/tenants', '/', '//x', 'https://evil.test/']) {
      await expect(client.platform.get(bad)).rejects.toThrow(/platform\.get/);
    }
    expect(seen.map((s) => s.path)).toEqual(['/api/v1/platform/admin/tenants']);
  });
});

describe('path guard (pure)', () => {
  it('keeps what is safe, with one leading slash', () => {
    expect(checkSubPath('tenants/rowery-nowak/repairs')).toEqual({ ok: true, path: '/tenants/rowery-nowak/repairs' });
    expect(checkSubPath('/')).toEqual({ ok: true, path: '/' });
    expect(checkSubPath('/tenants/sklep.pl/a...b')).toEqual({ ok: true, path: '/tenants/sklep.pl/a...b' });
    expect(checkSubPath(42)).toMatchObject({ ok: false });
    expect(checkSubPath('/tenants/a;b/repairs')).toEqual({ ok: true, path: '/tenants/a;b/repairs' });
  });

  it('a segment that is "." or ".." once what follows its first ";" is dropped is refused (Tomcat/Jetty read it so)', () => {
    for (const bad of ['/tenants/t/..;/x', '/tenants/t/..;jsessionid=1/x', '.;x/docs', '/%2e%2e;/x', '/tenants/t/.;/x']) {
      expect(checkSubPath(bad), bad).toMatchObject({ ok: false, reason: expect.stringContaining('".."') });
    }
  });

  it('the URL check is the last net: origin and base path must hold after parsing', () => {
    const base = new URL('https://api.test/api/v1');
    expect(staysInside(base, '/docs')).toBe(true);
    expect(staysInside(base, '/../x')).toBe(false);
    expect(staysInside(base, '/platform/tenants', '/platform/')).toBe(true);
    expect(staysInside(base, '/tenants/x', '/platform/')).toBe(false);
  });
});
