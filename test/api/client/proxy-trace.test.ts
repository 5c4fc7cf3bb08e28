/**
 * What every request carries (a User-Agent naming the client, a W3C traceparent) and the way it
 * travels: through a real proxy (Debian's tinyproxy) when HTTPS_PROXY / HTTP_PROXY say so, never
 * when NO_PROXY or `proxy: false` do; over https only as a CONNECT tunnel, so the proxy never sees
 * the key; over plain http only with a warning that it does.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiKey, createClient } from '../../../api/client/index.js';
import { CLIENT_VERSION, traceparent } from '../../../api/client/attempt.js';
import { proxyFor } from '../../../api/client/client.js';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { hasTinyproxy, startTinyproxy, type Tinyproxy } from '../../helpers/tinyproxy.js';
import { BASE_URL, KEY, captureLogger, envelopeError, envelopeOk, mockAgent } from './helpers.js';

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
const saved = Object.fromEntries(PROXY_VARS.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of PROXY_VARS)
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
});

describe('User-Agent and traceparent on every request', () => {
  it('names the client and your app, one trace across a call’s attempts (a new span each), its id on the error and the response', async () => {
    const { agent, pool } = mockAgent();
    const seen: Array<Record<string, string>> = [];
    const answer = (status: number, body: object) =>
      pool
        .intercept({ path: '/api/v1/tenants/rowery-nowak/clients' })
        .reply(status, (o) => (seen.push(o.headers as Record<string, string>), body));
    answer(503, envelopeError('internal_error', 'x'));
    answer(503, envelopeError('internal_error', 'x'));
    answer(200, envelopeOk([]));
    const client = createClient({
      baseUrl: BASE_URL,
      apiKey: KEY,
      tenant: 'rowery-nowak',
      dispatcher: agent,
      userAgent: 'shop-sync/1.4',
      maxRetries: 3,
      logLevel: 'silent',
    });
    const { response } = await client.list('clients').withResponse();
    expect(seen).toHaveLength(3);
    expect(seen[0]?.['user-agent']).toBe(`shop-sync/1.4 repair-service-client/${CLIENT_VERSION} node/${process.versions.node}`);
    const parts = seen.map((h) => /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(h['traceparent'] ?? '')!);
    expect(parts.every(Boolean)).toBe(true);
    expect(new Set(parts.map((p) => p[1])).size).toBe(1);
    expect(new Set(parts.map((p) => p[2])).size).toBe(3);
    expect(response.traceId).toBe(parts[0]?.[1]);

    answer(401, envelopeError('unauthorized', 'x'));
    const mine = traceparent('0af7651916cd43dd8448eb211c80319c');
    const error = await client.list('clients', { traceparent: mine }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unauthorized', traceId: '0af7651916cd43dd8448eb211c80319c' });
    expect(seen.at(-1)?.['traceparent']).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    await expect(client.list('clients', { traceparent: 'not-a-trace' })).rejects.toThrow(/option "traceparent" must be a W3C traceparent/);
    await agent.close();
  });
});

describe('proxyFor reads the environment as undici and curl do', () => {
  const env = (over: Record<string, string>) => over;
  it('https uses HTTPS_PROXY (else HTTP_PROXY), http uses HTTP_PROXY; NO_PROXY by host, suffix, port and *', () => {
    const https = new URL('https://api.shop.example/api/v1');
    const http = new URL('http://127.0.0.1:4010/api/v1');
    expect(proxyFor(https, env({ HTTPS_PROXY: 'http://user:secret@proxy.corp:3128' }))).toBe('proxy.corp:3128');
    expect(proxyFor(https, env({ http_proxy: 'http://p:8080' }))).toBe('p:8080');
    expect(proxyFor(http, env({ HTTPS_PROXY: 'http://p:8080' }))).toBeUndefined();
    expect(proxyFor(https, env({ HTTPS_PROXY: 'http://p:1', NO_PROXY: 'shop.example' }))).toBeUndefined();
    expect(proxyFor(https, env({ HTTPS_PROXY: 'http://p:1', NO_PROXY: '.example:443' }))).toBeUndefined();
    expect(proxyFor(https, env({ HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example:8443' }))).toBe('p:1');
    expect(proxyFor(http, env({ HTTP_PROXY: 'http://p:1', no_proxy: '*' }))).toBeUndefined();
  });
});

describe.runIf(hasTinyproxy('the client proxy test'))('through a real proxy (tinyproxy)', () => {
  let proxy: Tinyproxy;
  let tls: RunningSandbox;
  let plain: RunningSandbox;
  let ca: string;
  beforeAll(async () => {
    proxy = await startTinyproxy();
    [tls, plain] = await Promise.all([startSandbox({ tls: true }), startSandbox()]);
    ca = tls.ca!.pem;
  });
  afterAll(async () => {
    await Promise.all([proxy?.close(), tls?.close(), plain?.close()]);
  });

  const keyOf = (sandbox: RunningSandbox) => new ApiKey(sandbox.key('nowak-test').key, 'nowak-test');

  it('https goes through a CONNECT tunnel: the proxy sees host and port, never the key', async () => {
    process.env['HTTPS_PROXY'] = proxy.url;
    const client = createClient({ baseUrl: tls.baseUrl, apiKey: keyOf(tls), tenant: 'rowery-nowak', ca, logLevel: 'silent' });
    await expect(client.list('clients')).resolves.toBeInstanceOf(Array);
    await client.close();
    const port = new URL(tls.baseUrl).port;
    expect(proxy.log()).toMatch(new RegExp(`Request \\(file descriptor \\d+\\): CONNECT 127\\.0\\.0\\.1:${port}`));
    expect(proxy.log()).not.toContain(keyOf(tls).reveal());
  });

  it('NO_PROXY and proxy: false go direct', async () => {
    const before = proxy.log().length;
    process.env['HTTPS_PROXY'] = proxy.url;
    process.env['NO_PROXY'] = '127.0.0.1';
    const bypassed = createClient({ baseUrl: tls.baseUrl, apiKey: keyOf(tls), tenant: 'rowery-nowak', ca, logLevel: 'silent' });
    await bypassed.list('clients');
    await bypassed.close();
    delete process.env['NO_PROXY'];
    const direct = createClient({ baseUrl: tls.baseUrl, apiKey: keyOf(tls), tenant: 'rowery-nowak', ca, proxy: false, logLevel: 'silent' });
    await direct.list('clients');
    await direct.close();
    expect(proxy.log().slice(before)).not.toMatch(/Request \(file descriptor/);
  });

  it('plain http through a proxy works, with a warning that the proxy sees the key', async () => {
    process.env['HTTP_PROXY'] = proxy.url;
    const { logger, lines } = captureLogger();
    const client = createClient({ baseUrl: plain.baseUrl, apiKey: keyOf(plain), tenant: 'rowery-nowak', logger });
    await expect(client.list('clients')).resolves.toBeInstanceOf(Array);
    await client.close();
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      `repair-service: 127.0.0.1:${new URL(plain.baseUrl).port} is plain http and goes through the proxy 127.0.0.1:${new URL(proxy.url).port}, which sees the API key; use https, or NO_PROXY=127.0.0.1`,
    ]);
    // undici tunnels plain http too (CONNECT), but the bytes in the tunnel are the request in clear.
    expect(proxy.log()).toMatch(new RegExp(`Request \\(file descriptor \\d+\\): CONNECT 127\\.0\\.0\\.1:${new URL(plain.baseUrl).port}`));
  });
});
