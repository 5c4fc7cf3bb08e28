/**
 * The monitor behind a real proxy (Debian's tinyproxy), as curl reads HTTPS_PROXY / HTTP_PROXY /
 * NO_PROXY: an https target goes through a CONNECT tunnel (the proxy sees host and port, never
 * the key) and its certificate is still the API's; NO_PROXY and `proxy: false` go direct; a
 * plain-http target goes through with a warning (check-config's, and serve's once per target).
 * `repairmon_target_proxy_info` says which way each target's probes went.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../lib/logger.js';
import { configWarnings } from '../../../monitor/check/advice.js';
import { loadConfigFile } from '../../../monitor/config/load.js';
import type { MonitorConfig } from '../../../monitor/config/types.js';
import { createMonitor } from '../../../monitor/service.js';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { type Tinyproxy, hasTinyproxy, startTinyproxy } from '../../helpers/tinyproxy.js';
import { seriesValue, silent } from '../helpers.js';

const INFO = 'repairmon_target_proxy_info';
const CONNECT_LINE = /Request \(file descriptor \d+\): CONNECT 127\.0\.0\.1:(\d+)/g;

describe.runIf(hasTinyproxy('the monitor proxy test'))('the monitor through a real proxy (tinyproxy)', () => {
  let proxy: Tinyproxy;
  let tls: RunningSandbox;
  let plain: RunningSandbox;
  let dir: string;
  let proxyHost: string;

  beforeAll(async () => {
    proxy = await startTinyproxy();
    proxyHost = new URL(proxy.url).host;
    [tls, plain] = await Promise.all([startSandbox({ tls: true }), startSandbox()]);
    dir = mkdtempSync(join(tmpdir(), 'repairmon-proxy-'));
    writeFileSync(join(dir, 'ca.pem'), tls.ca!.pem);
  });
  afterAll(async () => {
    await Promise.all([proxy?.close(), tls?.close(), plain?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const keys = (): Record<string, string> => ({ TLS_KEY: tls.key('nowak-test').key, PLAIN_KEY: plain.key('nowak-test').key });

  /** A config as an operator writes it, through the real loader. */
  function load(...targets: string[][]): MonitorConfig {
    const file = join(dir, 'monitor.yaml');
    writeFileSync(file, ['targets:', ...targets.flat()].join('\n'));
    const result = loadConfigFile(file, keys());
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.config;
  }

  function target(name: string, sandbox: RunningSandbox, extra: string[] = []): string[] {
    const https = sandbox === tls;
    return [
      `  - name: ${name}`,
      `    baseUrl: ${sandbox.baseUrl}`,
      '    timeout: 5s',
      '    canaries: false',
      ...(https ? [`    tls: { caFile: ${join(dir, 'ca.pem')} }`] : []),
      ...extra,
      `    keys: [{ alias: nowak-test, kind: tenant, tenant: rowery-nowak, secret: "\${${https ? 'TLS_KEY' : 'PLAIN_KEY'}}" }]`,
    ];
  }

  /** Ports the proxy opened a CONNECT tunnel to since `from` (an offset into its log). */
  const tunnels = (from: number): string[] => [...proxy.log().slice(from).matchAll(CONNECT_LINE)].map((m) => m[1]!);

  it("https goes through a CONNECT tunnel: the proxy never sees the key, the certificate read is the API's, the info series names the proxy", async () => {
    const from = proxy.log().length;
    const monitor = createMonitor(load(target('tls', tls)), { logger: silent, env: { HTTPS_PROXY: proxy.url } });
    try {
      await monitor.runOnce();
      expect(monitor.history.recent().filter((e) => !e.success)).toEqual([]);
      expect(tunnels(from)).toContain(new URL(tls.baseUrl).port);
      expect(proxy.log()).not.toContain(tls.key('nowak-test').key);
      const text = await monitor.registry.metrics();
      expect(seriesValue(text, INFO, { target: 'tls', proxy: proxyHost })).toBe(1);
      expect(seriesValue(text, 'repairmon_tls_cert_expiry_timestamp_seconds', { target: 'tls' })).toBeGreaterThan(Date.now() / 1000);
    } finally {
      await monitor.stop();
    }
  });

  it('NO_PROXY and `proxy: false` go direct, and the info series says so', async () => {
    const from = proxy.log().length;
    const config = load(target('bypassed', tls), target('opted-out', plain, ['    proxy: false']));
    const monitor = createMonitor(config, {
      logger: silent,
      env: { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: `localhost,127.0.0.1:${new URL(tls.baseUrl).port}` },
    });
    try {
      await monitor.runOnce();
      expect(monitor.history.recent().filter((e) => !e.success)).toEqual([]);
      expect(proxy.log().slice(from)).not.toMatch(/Request \(file descriptor/);
      const text = await monitor.registry.metrics();
      expect(seriesValue(text, INFO, { target: 'bypassed', proxy: 'direct' })).toBe(1);
      expect(seriesValue(text, INFO, { target: 'opted-out', proxy: 'direct' })).toBe(1);
      expect(text.split('\n').filter((l) => l.startsWith(`${INFO}{`))).toHaveLength(2);
    } finally {
      await monitor.stop();
    }
  });

  it("plain http goes through with a warning that the proxy sees the key: check-config's, and serve's once per target across reloads", async () => {
    const env = { HTTP_PROXY: proxy.url };
    const config = load(target('plain', plain), target('direct', plain, ['    proxy: false']));
    const warning = `127.0.0.1:${new URL(plain.baseUrl).port} is plain http and goes through the proxy ${proxyHost}, which sees the API key; use https, NO_PROXY=127.0.0.1 or \`proxy: false\` on target plain`;
    expect(configWarnings(config, undefined, env)).toEqual([{ path: 'targets[0].baseUrl', message: warning }]);
    expect(configWarnings(config, undefined, {})).toEqual([]);

    const out = new PassThrough();
    const lines: Array<{ msg: string; target?: string }> = [];
    out.on('data', (c: Buffer) =>
      lines.push(
        ...c
          .toString()
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { msg: string }),
      ),
    );
    const from = proxy.log().length;
    const monitor = createMonitor(config, { logger: createLogger({ level: 'warn', destination: out }), env });
    try {
      await monitor.runOnce();
      await monitor.reload({ ok: true, config });
      expect(monitor.history.recent().filter((e) => !e.success)).toEqual([]);
      expect(tunnels(from)).toContain(new URL(plain.baseUrl).port);
      expect(lines.filter((l) => l.msg.includes('plain http'))).toEqual([expect.objectContaining({ target: 'plain', msg: warning })]);
      expect(seriesValue(await monitor.registry.metrics(), INFO, { target: 'plain', proxy: proxyHost })).toBe(1);
    } finally {
      await monitor.stop();
    }
  });
});
