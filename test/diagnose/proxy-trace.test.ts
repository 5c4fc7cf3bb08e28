/**
 * `repairmon probe` and `repairmon discover` on the way out: every request names repairmon and
 * its version and carries a traceparent whose trace id the probe's report shows next to the
 * request id; behind a real proxy (Debian's tinyproxy) an https call is a CONNECT tunnel (the
 * proxy never sees the key), NO_PROXY and `--no-proxy` go direct, and a plain-http base URL goes
 * through with a warning that the proxy sees the key.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKey } from '../../api/client/index.js';
import { type DiagnosisReport, parseTarget, runDiagnosis } from '../../diagnose/index.js';
import { runDiscovery } from '../../discover/index.js';
import { packageVersion } from '../../lib/index.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { type Tinyproxy, hasTinyproxy, startTinyproxy } from '../helpers/tinyproxy.js';
import { runMain } from '../helpers/fake-io.js';
import { ensureBuilt, runCli } from '../helpers/rig.js';

const TRACEPARENT = /^00-([0-9a-f]{32})-[0-9a-f]{16}-01$/;
const CONNECT_LINE = /Request \(file descriptor \d+\): CONNECT 127\.0\.0\.1:(\d+)/g;

function recording(): { dispatcher: Dispatcher; sent: Array<Record<string, string>> } {
  const sent: Array<Record<string, string>> = [];
  const dispatcher = new Agent().compose((dispatch) => (opts, handler) => {
    sent.push(opts.headers as Record<string, string>);
    return dispatch(opts, handler);
  });
  return { dispatcher, sent };
}

let plain: RunningSandbox;
beforeAll(async () => {
  plain = await startSandbox({ rateLimit: '1000/1m' });
});
afterAll(async () => {
  await plain?.close();
});

const keyOf = (sandbox: RunningSandbox) => new ApiKey(sandbox.key('nowak-test').key, 'nowak-test');

describe('User-Agent and traceparent', () => {
  it("probe: every request carries both; each row shows its call's trace id next to the request id", async () => {
    const { dispatcher, sent } = recording();
    const target = parseTarget(plain.baseUrl);
    if (!target.ok) throw new Error(target.reason);
    const report: DiagnosisReport = await runDiagnosis({
      target: target.target,
      key: keyOf(plain),
      auth: 'bearer',
      tenant: 'rowery-nowak',
      platformPaths: undefined,
      timeoutS: 5,
      dispatcher,
    });
    await dispatcher.close();
    expect(sent.length).toBe(report.traffic.requestsSent);
    expect(new Set(sent.map((h) => h['user-agent']))).toEqual(new Set([`repairmon/${packageVersion()}`]));
    const traces = sent.map((h) => TRACEPARENT.exec(h['traceparent'] ?? '')?.[1]);
    expect(new Set(traces).size).toBe(sent.length);
    const answered = report.checks.filter((c) => c.requestId !== undefined);
    expect(answered.length).toBeGreaterThan(0);
    for (const row of answered) expect(traces).toContain(row.traceId);
  });

  it('discover: every request carries both', async () => {
    const { dispatcher, sent } = recording();
    await runDiscovery({
      baseUrl: plain.baseUrl,
      key: keyOf(plain),
      auth: 'bearer',
      tenant: 'rowery-nowak',
      platformPaths: undefined,
      timeoutS: 5,
      dispatcher,
    });
    await dispatcher.close();
    expect(sent.length).toBeGreaterThan(3);
    expect(sent.every((h) => h['user-agent'] === `repairmon/${packageVersion()}` && TRACEPARENT.test(h['traceparent'] ?? ''))).toBe(true);
  });
});

describe.runIf(hasTinyproxy('the probe and discover proxy test'))('through a real proxy (tinyproxy)', () => {
  let proxy: Tinyproxy;
  let tls: RunningSandbox;
  let dir: string;
  beforeAll(async () => {
    ensureBuilt();
    proxy = await startTinyproxy();
    tls = await startSandbox({ tls: true });
    dir = mkdtempSync(join(tmpdir(), 'repairmon-proxy-'));
    writeFileSync(join(dir, 'ca.pem'), tls.ca!.pem);
  });
  afterAll(async () => {
    await Promise.all([proxy?.close(), tls?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const tunnels = (from: number): string[] => [...proxy.log().slice(from).matchAll(CONNECT_LINE)].map((m) => m[1]!);

  /** Runs a command in-process with the given environment and the key in CUSTOMER_KEY. */
  const run = (args: readonly string[], env: Record<string, string>) =>
    runMain(args, { ...env, CUSTOMER_KEY: plain.key('nowak-test').key });

  it("probe over https (the built CLI): CONNECT only, the key never in the proxy's log", async () => {
    const from = proxy.log().length;
    const key = tls.key('nowak-test').key;
    const out = await runCli(['probe', '--base-url', tls.baseUrl, '--tenant', 'rowery-nowak', '--key-env', 'CUSTOMER_KEY', '--json'], {
      env: { CUSTOMER_KEY: key, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') },
    });
    expect(out.stderr).not.toContain('warning');
    expect((JSON.parse(out.stdout) as DiagnosisReport).verdict.kind).toBe('ok');
    expect(tunnels(from)).toContain(new URL(tls.baseUrl).port);
    expect(proxy.log()).not.toContain(key);
  });

  it('plain http: through the proxy with a warning that it sees the key; NO_PROXY and --no-proxy go direct without one', async () => {
    const port = new URL(plain.baseUrl).port;
    const warning = `warning: 127.0.0.1:${port} is plain http and goes through the proxy ${new URL(proxy.url).host}, which sees the API key; use https, NO_PROXY=127.0.0.1 or --no-proxy\n`;
    for (const command of ['probe', 'discover']) {
      const args = [command, '--base-url', plain.baseUrl, '--tenant', 'rowery-nowak', '--key-env', 'CUSTOMER_KEY', '--json'];
      let from = proxy.log().length;
      const proxied = await run(args, { HTTP_PROXY: proxy.url });
      expect(proxied.stderr).toContain(`repairmon ${command}: ${warning}`);
      expect(tunnels(from)).toContain(port);

      from = proxy.log().length;
      for (const direct of [
        await run(args, { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }),
        await run([...args, '--no-proxy'], { HTTP_PROXY: proxy.url }),
      ]) {
        expect(direct.stderr).not.toContain('warning');
        expect(JSON.parse(direct.stdout)).toBeTruthy();
      }
      expect(proxy.log().slice(from)).not.toMatch(/Request \(file descriptor/);
    }
  });
});
