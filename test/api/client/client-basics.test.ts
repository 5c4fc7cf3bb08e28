import { afterEach, describe, expect, it } from 'vitest';
import { ApiKey, createClient, isEnvelopeError } from '../../../api/client/index.js';
import { sendAttempt } from '../../../api/client/single-attempt.js';
import { BASE_URL, JSON_HEADERS, KEY, SECRET, captureLogger, envelopeOk, mockAgent } from './helpers.js';

const agents: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

function setup(over: Parameters<typeof createClient>[0] extends infer O ? Partial<O> : never = {}) {
  const { agent, pool } = mockAgent();
  agents.push(agent);
  const { logger, lines } = captureLogger();
  const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant: 'rowery-nowak', dispatcher: agent, logger, ...over });
  return { agent, pool, client, lines };
}

describe('client: typed methods', () => {
  it('lists tenant resources with the bearer header and returns data', async () => {
    const { pool, client } = setup();
    let seen: Record<string, string> = {};
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/clients', method: 'GET' }).reply(
      200,
      (opts) => {
        seen = opts.headers as Record<string, string>;
        return envelopeOk([{ id: 1 }]);
      },
      { headers: JSON_HEADERS },
    );
    await expect(client.list('clients')).resolves.toEqual([{ id: 1 }]);
    expect(seen['authorization']).toBe(`Bearer ${SECRET}`);
    expect(seen['x-api-key']).toBeUndefined();
  });

  it('sends x-api-key when asked, and a per-call tenant', async () => {
    const { pool, client } = setup({ authScheme: 'x-api-key' });
    let seen: Record<string, string> = {};
    pool.intercept({ path: '/api/v1/tenants/serwis-kowalski/bikes' }).reply(200, (opts) => {
      seen = opts.headers as Record<string, string>;
      return envelopeOk([]);
    });
    await expect(client.list('bikes', { tenant: 'serwis-kowalski' })).resolves.toEqual([]);
    expect(seen['x-api-key']).toBe(SECRET);
    expect(seen['authorization']).toBeUndefined();
  });

  it('covers every endpoint: index, docs (without the key), repairs, logs, platform', async () => {
    const { pool, client } = setup();
    const keyed: Record<string, boolean> = {};
    const record = (path: string, data: unknown) =>
      pool.intercept({ path }).reply(200, (opts) => {
        const headers = opts.headers as Record<string, string>;
        keyed[path] = headers['authorization'] !== undefined;
        return envelopeOk(data);
      });
    record('/api/v1/', { docs: '/docs' });
    record('/api/v1/docs', { endpoints: [] });
    record('/api/v1/tenants/rowery-nowak/repairs', [1]);
    record('/api/v1/tenants/rowery-nowak/logs', [2]);
    record('/api/v1/platform/tenants', { tenants: [] });
    expect(await client.index()).toEqual({ docs: '/docs' });
    expect(await client.docs()).toEqual({ endpoints: [] });
    expect(await client.list('repairs')).toEqual([1]);
    expect(await client.list('logs')).toEqual([2]);
    expect(await client.platform.get('/tenants')).toEqual({ tenants: [] });
    expect(keyed).toEqual({
      '/api/v1/': true,
      '/api/v1/docs': false,
      '/api/v1/tenants/rowery-nowak/repairs': true,
      '/api/v1/tenants/rowery-nowak/logs': true,
      '/api/v1/platform/tenants': true,
    });
  });

  it('refuses a list whose data is not an array, without retrying', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/clients' }).reply(200, envelopeOk({ not: 'a list' }));
    const error = await client.list('clients').catch((e: unknown) => e);
    expect(isEnvelopeError(error) && error.problem).toBe('data_not_array');
  });

  it('refuses a success body above the cap (declared or streamed), reads an error body only so far', async () => {
    const { pool, agent } = setup();
    const path = '/tenants/rowery-nowak/clients';
    const send = () =>
      sendAttempt({
        dispatcher: agent,
        baseUrl: BASE_URL,
        path,
        endpoint: 'clients',
        key: KEY,
        authScheme: 'bearer',
        timeoutMs: 5_000,
        maxBodyBytes: 100,
      });
    pool.intercept({ path: `/api/v1${path}` }).reply(200, envelopeOk(['x'.repeat(500)]));
    expect(await send()).toMatchObject({ kind: 'failure', failure: { kind: 'body_too_large', limitBytes: 100 } });
    pool.intercept({ path: `/api/v1${path}` }).reply(502, 'y'.repeat(100_000));
    expect(await send()).toMatchObject({ kind: 'response', status: 502, classification: { kind: 'server_error' } });
  });
});

describe('client: bad input names the option', () => {
  const base = { baseUrl: BASE_URL, apiKey: KEY };
  it.each([
    [{ baseUrl: '' }, /"baseUrl" is required/],
    [{ baseUrl: 'not a url' }, /"baseUrl" is not a URL/],
    [{ baseUrl: 'ftp://x/api/v1' }, /"baseUrl" must use http or https, not ftp:/],
    [{ baseUrl: 'http://u:p@x/api/v1' }, /must not carry credentials/],
    [{ baseUrl: 'http://x/api' }, /"baseUrl" must end in \/api\/v1/],
    [{ apiKey: '' }, /is empty/],
    [{ authScheme: 'basic' }, /"authScheme"/],
    [{ tenant: 'rowery/nowak' }, /"tenant" "rowery\/nowak" cannot contain "\/"/],
    [{ maxRetries: -1 }, /"maxRetries" must be an integer >= 0, got -1/],
    [{ attemptTimeoutMs: 0 }, /"attemptTimeoutMs"/],
    [{ totalTimeoutMs: 1.5 }, /"totalTimeoutMs"/],
    [{ maxRetryAfterMs: -1 }, /"maxRetryAfterMs"/],
    [{ logLevel: 'loud' }, /"logLevel" must be one of debug, info, warn, error, silent/],
    [{ ca: 'x' }, /"ca" needs an https baseUrl/],
  ])('%j', (over, message) => {
    expect(() => createClient({ ...base, ...over } as Parameters<typeof createClient>[0])).toThrow(message);
  });

  it('a tenant method without any tenant says how to fix it', async () => {
    const { client } = setup({ tenant: undefined });
    await expect(client.list('clients')).rejects.toThrow(/no tenant: pass \{ tenant \}/);
    await expect(client.list('clients', { tenant: '../x' })).rejects.toThrow(/"tenant"/);
    await expect(client.platform.get('')).rejects.toThrow(/platform.get/);
  });

  it('close() closes the client’s own Agent, and is idempotent', async () => {
    const own = createClient({ baseUrl: BASE_URL, apiKey: KEY });
    await own.close();
    await own.close();
    await expect(own.docs({ maxRetries: 0 })).rejects.toMatchObject({ name: 'ConnectionError' });
  });

  it('accepts the key as a string, and close() leaves an injected dispatcher open', async () => {
    const { pool, client, agent } = setup({ apiKey: SECRET });
    expect(client.keyAlias).toBe('api-key');
    await client.close();
    pool.intercept({ path: '/api/v1/docs' }).reply(200, envelopeOk({}));
    await expect(createClient({ baseUrl: BASE_URL, apiKey: new ApiKey(SECRET), dispatcher: agent }).docs()).resolves.toEqual({});
  });
});
