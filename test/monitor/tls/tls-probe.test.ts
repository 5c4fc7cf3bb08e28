/**
 * The monitor against the real sandbox served over real TLS (an openssl-made self-signed
 * certificate): `tls.caFile` trusts it and the expiry gauge equals openssl's notAfter; without
 * it every probe is a tls_error naming the certificate problem; `serverName` checks a name the
 * URL does not carry; the gauge follows reloads and is read per connection, not per probe.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../monitor/config/load.js';
import type { MonitorConfig } from '../../../monitor/config/types.js';
import { makeAgent } from '../../../monitor/probe/agent.js';
import { createMonitor } from '../../../monitor/service.js';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { seriesValue, silent } from '../helpers.js';
import { type TestCertificate, type TlsFront, makeCertificate, opensslPresent, startTlsFront } from '../../helpers/tls.js';
import { toolAvailable } from '../../helpers/tools.js';

const GAUGE = 'repairmon_tls_cert_expiry_timestamp_seconds';
const PROMTOOL = '/usr/bin/promtool';
const hasOpenssl = opensslPresent('the TLS monitor tests (a certificate is generated at test time)');

describe.skipIf(!hasOpenssl)('the monitor over TLS to the real sandbox', () => {
  let sandbox: RunningSandbox;
  let byIp: TestCertificate;
  let byName: TestCertificate;
  let ipFront: TlsFront;
  let nameFront: TlsFront;

  /** A config file as an operator writes it, loaded through the real loader. */
  function load(lines: readonly string[]): MonitorConfig {
    const file = join(byIp.dir, 'monitor.yaml');
    writeFileSync(file, ['targets:', ...lines].join('\n'));
    const result = loadConfigFile(file, { NOWAK_KEY: sandbox.key('nowak-test').key });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.config;
  }

  function target(name: string, baseUrl: string, tls?: string): string[] {
    return [
      `  - name: ${name}`,
      `    baseUrl: ${baseUrl}`,
      '    timeout: 2s',
      ...(tls ? [`    tls: ${tls}`] : []),
      '    keys: [{ alias: nowak-test, kind: tenant, tenant: rowery-nowak, secret: "${NOWAK_KEY}" }]',
    ];
  }

  async function roundOf(config: MonitorConfig) {
    const monitor = createMonitor(config, { logger: silent });
    await monitor.runOnce();
    const text = await monitor.registry.metrics();
    return { monitor, text, history: monitor.history.recent() };
  }

  beforeAll(async () => {
    sandbox = await startSandbox();
    byIp = makeCertificate({ commonName: '127.0.0.1', altNames: ['IP:127.0.0.1'], days: 3 });
    byName = makeCertificate({ commonName: 'repairmon.test', altNames: ['DNS:repairmon.test'], days: 5 });
    ipFront = await startTlsFront(byIp, sandbox.port);
    nameFront = await startTlsFront(byName, sandbox.port);
  });
  afterAll(async () => {
    await ipFront?.close();
    await nameFront?.close();
    await sandbox?.close();
    byIp?.remove();
    byName?.remove();
  });

  it('with tls.caFile every probe passes and the gauge is the certificate notAfter, labelled by target only', async () => {
    const { monitor, text, history } = await roundOf(load(target('secure', ipFront.baseUrl, `{ caFile: ${byIp.certFile} }`)));
    try {
      expect(history.length).toBeGreaterThan(5);
      expect(history.filter((e) => !e.success).map((e) => `${e.endpoint} ${e.check} ${e.outcome}`)).toEqual([]);
      expect(seriesValue(text, GAUGE, { target: 'secure' })).toBe(byIp.notAfterSeconds);
      const lines = text.split('\n').filter((l) => l.startsWith(`${GAUGE}{`));
      expect(lines).toEqual([`${GAUGE}{target="secure"} ${byIp.notAfterSeconds}`]);
      expect(text).not.toContain(`127.0.0.1:${ipFront.port}`);
      expect(text).not.toContain('https://');
      if (toolAvailable(existsSync(PROMTOOL), 'linting the TLS scrape', PROMTOOL)) {
        const lint = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
        expect(lint.status, lint.stdout + lint.stderr).toBe(0);
      }
    } finally {
      await monitor.stop();
    }
  });

  it('without caFile every probe is a tls_error whose reason and detail name the self-signed certificate; no gauge', async () => {
    const { monitor, text, history } = await roundOf(load(target('untrusted', ipFront.baseUrl)));
    try {
      expect(history.length).toBeGreaterThan(5);
      expect(new Set(history.map((e) => e.outcome))).toEqual(new Set(['tls_error']));
      expect(new Set(history.map((e) => e.reason))).toEqual(new Set(['tls_depth_zero_self_signed_cert']));
      expect(history[0]?.detail).toMatch(/self[- ]signed certificate/i);
      expect(
        seriesValue(text, 'repairmon_probe_failure_reason', {
          target: 'untrusted',
          endpoint: 'clients',
          reason: 'tls_depth_zero_self_signed_cert',
        }),
      ).toBe(1);
      expect(text).not.toContain(`${GAUGE}{`);
    } finally {
      await monitor.stop();
    }
  });

  it('tls.serverName checks a certificate issued for a name the URL does not carry; without it the name mismatch is the reason', async () => {
    const named = await roundOf(load(target('named', nameFront.baseUrl, `{ caFile: ${byName.certFile}, serverName: repairmon.test }`)));
    const unnamed = await roundOf(load(target('unnamed', nameFront.baseUrl, `{ caFile: ${byName.certFile} }`)));
    try {
      expect(new Set(named.history.map((e) => e.success))).toEqual(new Set([true]));
      expect(seriesValue(named.text, GAUGE, { target: 'named' })).toBe(byName.notAfterSeconds);
      expect(new Set(unnamed.history.map((e) => e.outcome))).toEqual(new Set(['tls_error']));
      expect(unnamed.history[0]?.reason).toBe('tls_err_tls_cert_altname_invalid');
      expect(unnamed.history[0]?.detail).toMatch(/127\.0\.0\.1.*not in the cert's (list|altnames)/i);
    } finally {
      await named.monitor.stop();
      await unnamed.monitor.stop();
    }
  });

  it('reload: a removed https target loses its series, one changed to http drops it, the remaining one keeps it', async () => {
    const http = (name: string) => target(name, sandbox.baseUrl);
    const monitor = createMonitor(
      load([
        ...target('stays', ipFront.baseUrl, `{ caFile: ${byIp.certFile} }`),
        ...target('goes', ipFront.baseUrl, `{ caFile: ${byIp.certFile} }`),
        ...target('plain', ipFront.baseUrl, `{ caFile: ${byIp.certFile} }`),
      ]),
      { logger: silent },
    );
    try {
      await monitor.runOnce();
      const before = await monitor.registry.metrics();
      for (const name of ['stays', 'goes', 'plain']) expect(seriesValue(before, GAUGE, { target: name }), name).toBe(byIp.notAfterSeconds);
      const reloaded = await monitor.reload({
        ok: true,
        config: load([...target('stays', ipFront.baseUrl, `{ caFile: ${byIp.certFile} }`), ...http('plain')]),
      });
      expect(reloaded.ok).toBe(true);
      await monitor.runOnce();
      const after = await monitor.registry.metrics();
      expect(after.split('\n').filter((l) => l.startsWith(`${GAUGE}{`))).toEqual([`${GAUGE}{target="stays"} ${byIp.notAfterSeconds}`]);
    } finally {
      await monitor.stop();
    }
  });

  it('reads the certificate once per new connection, not once per request', async () => {
    const config = load(target('pooled', ipFront.baseUrl, `{ caFile: ${byIp.certFile} }`));
    const seen: number[] = [];
    const agent = makeAgent(config.targets[0]!, 1, { onCertificate: (at) => seen.push(at) });
    const handshakesBefore = ipFront.handshakes();
    try {
      for (let i = 0; i < 5; i += 1) {
        const res = await request(`${ipFront.baseUrl}/docs`, { dispatcher: agent });
        await res.body.dump();
        expect(res.statusCode).toBe(200);
      }
      expect(ipFront.handshakes() - handshakesBefore).toBe(1);
      expect(seen).toEqual([byIp.notAfterSeconds]);
    } finally {
      await agent.close();
    }
  });
});
