/**
 * Who may read what on the monitor's HTTP surface: the rules as a pure function, then the real
 * server with tokens (status codes and challenges), and the refusal to serve beyond loopback
 * without a token (at start, on reload, and from the CLI).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKey } from '../../../api/client/index.js';
import { main } from '../../../cli/index.js';
import { DEFAULT_HTTP_SETTINGS, type HttpSettings, type MonitorConfig } from '../../../monitor/config/types.js';
import { demoConfig } from '../../../monitor/demo-config.js';
import { isLoopback } from '../../../lib/loopback.js';
import { authorize, browserGuard, presentedToken, tokenMatches, unprotectedListen } from '../../../monitor/http/auth.js';
import { type MonitorServer, createMonitorServer } from '../../../monitor/http/server.js';
import { guardReload, startServing } from '../../../monitor/run-service.js';
import { type Monitor, createMonitor } from '../../../monitor/service.js';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { fakeIo } from '../../helpers/fake-io.js';
import { silent } from '../helpers.js';

const TOKEN = 'http-token-4f1c9a7e2b6d8035';
const METRICS = 'metrics-token-77a0c3e5d91b4f26';
const http = (over: Partial<HttpSettings> = {}): HttpSettings => ({
  ...DEFAULT_HTTP_SETTINGS,
  token: new ApiKey(TOKEN, 'http.token'),
  ...over,
});
const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('the rules (pure)', () => {
  it('loopback is 127/8, ::1 and localhost; every other address is reachable from outside', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'repairmon.internal', '192.168.1.1']) expect(isLoopback(host), host).toBe(false);
  });

  it('a token comes as Bearer or as the password of Basic, never otherwise', () => {
    expect(presentedToken(`Bearer ${TOKEN}`)).toBe(TOKEN);
    expect(presentedToken(`bearer   ${TOKEN}`)).toBe(TOKEN);
    expect(presentedToken(basic('ops', TOKEN))).toBe(TOKEN);
    expect(presentedToken(basic('', TOKEN))).toBe(TOKEN);
    expect(presentedToken(`Token ${TOKEN}`)).toBeUndefined();
    expect(presentedToken(undefined)).toBeUndefined();
    expect(tokenMatches(TOKEN, new ApiKey(TOKEN))).toBe(true);
    expect(tokenMatches(`${TOKEN}x`, new ApiKey(TOKEN))).toBe(false);
    expect(tokenMatches('', new ApiKey(TOKEN))).toBe(false);
  });

  it('probe views need http.token; scrape paths are open unless http.metricsToken is set', () => {
    const both = http({ metricsToken: new ApiKey(METRICS, 'http.metricsToken') });
    const cases: [string, string | undefined, HttpSettings, number][] = [
      ['/', undefined, http(), 401],
      ['/', `Bearer ${TOKEN}`, http(), 200],
      ['/probe', 'Bearer wrong-token-000000000', http(), 401],
      ['/probes.json', `Bearer ${METRICS}`, both, 403],
      ['/-/reload', basic('x', TOKEN), both, 200],
      ['/metrics', undefined, http(), 200],
      ['/-/healthy', undefined, http(), 200],
      ['/metrics', undefined, both, 401],
      ['/metrics', `Bearer ${METRICS}`, both, 200],
      ['/-/ready', `Bearer ${TOKEN}`, both, 200],
      ['/', undefined, DEFAULT_HTTP_SETTINGS, 200],
    ];
    for (const [path, auth, settings, status] of cases) {
      const access = authorize(path, auth, settings);
      expect(access.ok ? 200 : access.status, `${path} ${auth}`).toBe(status);
    }
  });

  it('browsers: a loopback listener answers only loopback Host names; what acts refuses another site, whatever the token', () => {
    for (const host of ['127.0.0.1:9464', 'localhost:9464', 'LOCALHOST', '[::1]:9464', undefined])
      expect(browserGuard('GET', '/probes.json', { host }, '127.0.0.1'), String(host)).toBeUndefined();
    for (const host of ['evil.example:9464', 'evil.example', '127.0.0.1.evil.example', '10.0.0.5:9464', 'bad host'])
      expect(browserGuard('GET', '/metrics', { host }, '127.0.0.1'), host).toContain('DNS-rebinding');
    // Beyond loopback the machine's names are unknown: the token guards it.
    expect(browserGuard('GET', '/metrics', { host: 'repairmon.internal:9464' }, '0.0.0.0')).toBeUndefined();

    const host = '127.0.0.1:9464';
    expect(browserGuard('POST', '/-/reload', { host }, '127.0.0.1')).toBeUndefined();
    expect(
      browserGuard('POST', '/-/reload', { host, origin: 'http://127.0.0.1:9464', 'sec-fetch-site': 'same-origin' }, '127.0.0.1'),
    ).toBeUndefined();
    for (const [origin, site] of [
      ['http://evil.example', 'cross-site'],
      ['http://evil.example', undefined],
      [undefined, 'cross-site'],
      [undefined, 'same-site'],
      ['null', undefined],
      ['http://127.0.0.1:9999', undefined],
    ] as const) {
      const headers = { host, origin, 'sec-fetch-site': site };
      expect(browserGuard('POST', '/-/reload', headers, '127.0.0.1'), `${origin} ${site}`).toMatch(
        /^POST \/-\/reload refuses .*(cross-site|another origin)/,
      );
      expect(browserGuard('PUT', '/-/reload', headers, '0.0.0.0'), `${origin} ${site}`).toMatch(/refuses/);
    }
    // `/probe` spends the key's quota: a cross-site image or link may not trigger it; a plain view may be linked.
    expect(browserGuard('GET', '/probe', { host, 'sec-fetch-site': 'cross-site' }, '127.0.0.1')).toMatch(/refuses cross-site/);
    expect(browserGuard('GET', '/', { host, 'sec-fetch-site': 'cross-site' }, '127.0.0.1')).toBeUndefined();
  });

  it('a non-loopback listen without a token is refused, naming what to set', () => {
    expect(unprotectedListen('127.0.0.1', 9464, DEFAULT_HTTP_SETTINGS)).toBeUndefined();
    expect(unprotectedListen('0.0.0.0', 9464, http())).toBeUndefined();
    expect(unprotectedListen('0.0.0.0', 9464, DEFAULT_HTTP_SETTINGS)).toMatch(
      /^--listen 0\.0\.0\.0:9464 is reachable from other machines.*http: \{ token: \$\{REPAIRMON_HTTP_TOKEN\} \}.*openssl rand -hex 32.*127\.0\.0\.1$/,
    );
  });
});

describe('the server with tokens', () => {
  let sandbox: RunningSandbox;
  let monitor: Monitor;
  let server: MonitorServer;
  beforeAll(async () => {
    sandbox = await startSandbox();
    const config: MonitorConfig = {
      ...demoConfig(sandbox, { aliases: ['nowak-test'], schedule: '0 0 1 1 *' }),
      http: http({ metricsToken: new ApiKey(METRICS, 'http.metricsToken') }),
    };
    monitor = createMonitor(config, { logger: silent, load: () => ({ ok: true, config }) });
    server = await createMonitorServer(monitor, { host: '127.0.0.1', port: 0, logger: silent });
  });
  afterAll(async () => {
    await server.close();
    await monitor.stop();
    await sandbox.close();
  });

  const status = async (path: string, authorization?: string, method = 'GET'): Promise<number> =>
    (await fetch(`${server.url}${path}`, { method, headers: authorization ? { authorization } : {} })).status;

  it('401 with both challenges without a token; the token (Bearer or Basic) opens every view', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="repairmon", Basic realm="repairmon", charset="UTF-8"');
    expect(await res.text()).toContain('Authorization: Bearer <token>');
    for (const path of ['/', '/probes', '/probes.json', '/probe?target=sandbox&key=nowak-test&endpoint=docs&debug=true']) {
      expect(await status(path), path).toBe(401);
      expect(await status(path, 'Bearer not-the-token-at-all-0000'), path).toBe(401);
      expect(await status(path, `Bearer ${METRICS}`), path).toBe(403);
    }
    expect(await status('/', `Bearer ${TOKEN}`)).toBe(200);
    expect(await status('/probes', basic('ops', TOKEN))).toBe(200);
    expect(await status('/probe?target=sandbox&key=nowak-test&endpoint=docs&debug=true', `Bearer ${TOKEN}`)).toBe(200);
  });

  it('a cross-site "simple" POST /-/reload is refused even with the right token; a rebound Host reads nothing', async () => {
    const simple = await request(`${server.url}/-/reload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'text/plain',
        origin: 'http://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      body: 'x',
    });
    expect(simple.statusCode).toBe(403);
    expect(await simple.body.text()).toContain('refuses cross-site requests');
    const rebound = await request(`${server.url}/probes.json`, { headers: { authorization: `Bearer ${TOKEN}`, host: 'evil.example' } });
    expect(rebound.statusCode).toBe(403);
    await rebound.body.dump();
  });

  it('POST /-/reload needs the token too', async () => {
    expect(await status('/-/reload', undefined, 'POST')).toBe(401);
    expect(await status('/-/reload', `Bearer ${METRICS}`, 'POST')).toBe(403);
    expect(await status('/-/reload', `Bearer ${TOKEN}`, 'POST')).toBe(200);
  });

  it('/metrics and the health endpoints take the metrics token (or the main one)', async () => {
    for (const path of ['/metrics', '/-/healthy', '/-/ready']) {
      expect(await status(path), path).toBe(401);
      expect([200, 503], path).toContain(await status(path, `Bearer ${METRICS}`));
      expect([200, 503], path).toContain(await status(path, `Bearer ${TOKEN}`));
    }
  });

  it('the token never shows on any page', async () => {
    for (const path of ['/', '/probes', '/probes.json', '/metrics']) {
      const text = await (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(METRICS);
    }
  });
});

describe('beyond loopback', () => {
  const sandboxLike = {
    baseUrl: 'http://127.0.0.1:9/api/v1',
    tenants: ['rowery-nowak'],
    keys: [{ alias: 'nowak-test', kind: 'tenant' as const, tenant: 'rowery-nowak', revoked: false, key: 'rs_test_abcdefghijklmnop1234' }],
  };

  it('startServing and createMonitorServer refuse 0.0.0.0 without a token, and serve it with one', async () => {
    const bare = createMonitor(demoConfig(sandboxLike), { logger: silent });
    const refused = await startServing(bare, { host: '0.0.0.0', port: 0 }, silent);
    expect(refused).toMatchObject({ ok: false, reason: 'unprotected' });
    await expect(createMonitorServer(bare, { host: '0.0.0.0', port: 0, logger: silent })).rejects.toThrow(/http: \{ token/);
    await bare.stop();
    const guarded = createMonitor({ ...demoConfig(sandboxLike, { schedule: '0 0 1 1 *' }), http: http() }, { logger: silent });
    const served = await startServing(guarded, { host: '0.0.0.0', port: 0 }, silent);
    if (!served.ok) throw new Error(served.message);
    const port = new URL(served.server.url).port;
    expect((await fetch(`http://127.0.0.1:${port}/probes.json`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    await served.server.close();
    await guarded.stop();
  });

  it('a reload that drops the token is refused while listening beyond loopback', () => {
    const config = demoConfig(sandboxLike);
    expect(guardReload({ host: '0.0.0.0', port: 9464 }, { ok: true, config })).toMatchObject({
      ok: false,
      issues: [{ path: 'http.token' }],
    });
    expect(guardReload({ host: '127.0.0.1', port: 9464 }, { ok: true, config }).ok).toBe(true);
    expect(guardReload({ host: '0.0.0.0', port: 9464 }, { ok: true, config: { ...config, http: http() } }).ok).toBe(true);
  });

  it('`repairmon serve --listen 0.0.0.0:PORT` without http.token exits 2 naming it, binding nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repairmon-auth-'));
    const file = join(dir, 'monitor.yaml');
    writeFileSync(
      file,
      'targets:\n  - name: t\n    baseUrl: http://127.0.0.1:9/api/v1\n    keys:\n      - { alias: a-test, kind: tenant, tenant: rowery-nowak, secret: "${A_KEY}" }\n',
    );
    const io = { ...fakeIo(), env: { A_KEY: 'rs_test_secretsecretsecret9876' } };
    expect(await main(['serve', '--config', file, '--listen', '0.0.0.0:0', '--log-level', 'silent'], io)).toBe(2);
    expect(io.stderrText()).toContain('repairmon serve: --listen 0.0.0.0:0 is reachable from other machines');
    expect(io.stderrText()).toContain('http: { token: ${REPAIRMON_HTTP_TOKEN} }');
    expect(io.stdoutText()).toBe('');
  });
});
