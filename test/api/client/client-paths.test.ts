/** Query parameters, the generic get() and the path guard (client level and pure). */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, isNotFoundError } from '../../../api/client/index.js';
import { checkSubPath, isCredentialName, readable, staysInside } from '../../../api/client/paths.js';
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

describe('the path in messages', () => {
  it('names the tenant as its owner wrote it; error.path is what was sent', async () => {
    const { agent, pool } = mockAgent();
    agents.push(agent);
    const tenant = 'Rowery "Łódź" 100%';
    const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant, dispatcher: agent, maxRetries: 0 });
    const sent = `/tenants/${encodeURIComponent(tenant)}/clients`;
    pool.intercept({ path: `/api/v1${sent}` }).reply(401, envelopeError('unauthorized', 'Nieznany klucz'));
    const error = (await client.list('clients').catch((e: unknown) => e)) as Error & { path: string };
    expect(error.message).toMatch(/^GET \/tenants\/Rowery "Łódź" 100%\/clients failed: HTTP 401 unauthorized/);
    expect(error.path).toBe(sent);
  });

  it('keeps a segment as sent when decoding it would show a "/" or a control character, or is not valid', () => {
    expect(readable('/tenants/a%2Fb/x%0Ay/100%/caf%C3%A9')).toBe('/tenants/a%2Fb/x%0Ay/100%/café');
  });
});

describe('a query in get(path)', () => {
  it('is sent as given (encoded by the caller) on get and platform.get, with the key in a header', async () => {
    const { client, seen, record } = setup();
    record('/api/v1/tenants/rowery-nowak/repairs?status=w+naprawie&city=Gda%C5%84sk&tag=a&tag=b%26c');
    record('/api/v1/platform/tenants?limit=5', 200, envelopeOk({}));
    const query = new URLSearchParams([
      ['status', 'w naprawie'],
      ['city', 'Gdańsk'],
      ['tag', 'a'],
      ['tag', 'b&c'],
    ]);
    await client.get(`/tenants/rowery-nowak/repairs?${query.toString()}`);
    await client.platform.get('tenants?limit=5');
    expect(seen.map((s) => s.path)).toHaveLength(2);
    expect(seen.every((s) => s.auth === `Bearer ${SECRET}`)).toBe(true);
  });

  it.each(['api_key', 'apiKey', 'X-Api-Key', 'key', 'token', 'access_token', 'Authorization', 'password', 'client_secret'])(
    'refuses the credential-like name %s without sending anything',
    async (name) => {
      const { client, seen } = setup();
      await expect(client.get(`/docs?${name}=v`)).rejects.toThrow(
        new RegExp(`"${name}", which looks like a credential: a key never goes in a URL`),
      );
      expect(seen).toEqual([]);
    },
  );

  it('allows cursor-style names, refuses the key as a value and a fragment, never echoing the key', async () => {
    expect(['page_token', 'pageToken', 'cursor', 'next_token', 'keyword', 'monkey'].filter(isCredentialName)).toEqual([]);
    const { client } = setup();
    const error = (await client.get(`/tenants/rowery-nowak/clients?q=x${SECRET}`).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/the query holds the API key/);
    expect(error.message).not.toContain(SECRET);
    await expect(client.get('/docs?a=1#x')).rejects.toThrow(/carries a query or fragment/);
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
    await expect(client.get('/tenants/serwis-kowalski/clients')).rejects.toMatchObject({
      name: 'EnvelopeError',
      problem: 'data_not_array',
    });
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
    ['docs#x', /carries a query or fragment/],
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
