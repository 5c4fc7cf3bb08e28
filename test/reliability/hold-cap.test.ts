/**
 * One 429 must not silence a key for millennia. A server answering `Retry-After:
 * 1000000000000000`, a year-9999 date or `x-ratelimit-reset: 99999999999` used to hold the
 * key's probes for ~285 000 years and more, through reloads. The hold is capped at
 * `maxRateLimitHold` (1 h by default), and the cap is reported where people look: the reason
 * and detail on the status page and /probes.json, and the log line. The monitor's clock is
 * injected, so "an hour later" is a number, not a wait.
 *
 * Also checked, not changed: the generated client and `repairmon probe` never sleep on such a
 * hint (the client stops at `maxRetryAfterMs`, the probe at `--max-wait`).
 */
import { once } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiKey, createClient, isRateLimitError } from '../../api/client/index.js';
import { KEY_PREFIXES } from '../../api/contract/index.js';
import { parseTarget, renderDiagnosisTable, runDiagnosis } from '../../diagnose/index.js';
import { createLogger } from '../../lib/logger.js';
import { parseConfigValue } from '../../monitor/config/load.js';
import type { MonitorConfig } from '../../monitor/config/types.js';
import { createMonitorServer } from '../../monitor/http/server.js';
import { type Monitor, createMonitor } from '../../monitor/service.js';

const KEY = `${KEY_PREFIXES.test}holdcap0123456789abcdefgh`;
const HOUR = 3_600_000;
const HUGE_HINTS: ReadonlyArray<readonly [string, Record<string, string>]> = [
  ['Retry-After: 1000000000000000', { 'retry-after': '1000000000000000' }],
  ['Retry-After: a year-9999 date', { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' }],
  ['x-ratelimit-reset: 99999999999', { 'x-ratelimit-reset': '99999999999' }],
];

/**
 * An API that answers every request 429 with the headers of the moment, and counts those that
 * carry the key. (While the key is held, the public `/docs` goes once without it, and is then
 * held on its own 429: `keyless` counts those.)
 */
let api: Server;
let origin = '';
let headers: Record<string, string> = {};
let requests = 0;
let keyless = 0;
beforeAll(async () => {
  api = createServer((req, res) => {
    if (req.headers.authorization || req.headers['x-api-key']) requests += 1;
    else keyless += 1;
    res.writeHead(429, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end('{"ok":false,"error":{"code":"rate_limited","message":"Za dużo zapytań"}}');
  });
  api.listen(0, '127.0.0.1');
  await once(api, 'listening');
  origin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => (api.closeAllConnections(), api.close(() => done()))));
beforeEach(() => {
  requests = 0;
  keyless = 0;
});

function config(extra: Record<string, unknown> = {}): MonitorConfig {
  const parsed = parseConfigValue(
    {
      ...extra,
      targets: [
        {
          name: 'api',
          baseUrl: `${origin}/api/v1`,
          timeout: '2s',
          canaries: false,
          keys: [{ alias: 'nowak-test', kind: 'tenant', tenant: 'rowery-nowak', secret: '${KEY}' }],
        },
      ],
    },
    { env: { KEY }, baseDir: process.cwd() },
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.config;
}

interface Rig {
  readonly monitor: Monitor;
  readonly log: () => string;
  advance(ms: number): void;
}

function rig(cfg: MonitorConfig): Rig {
  let clock = Date.now();
  let log = '';
  const out = new PassThrough();
  out.on('data', (c: Buffer) => (log += c.toString()));
  const monitor = createMonitor(cfg, { logger: createLogger({ level: 'info', destination: out }), now: () => clock });
  return { monitor, log: () => log, advance: (ms) => void (clock += ms) };
}

const clients = (m: Monitor) => m.history.recent().find((e) => e.endpoint === 'clients' && e.sent);

describe('the monitor caps a 429 hold at maxRateLimitHold (1 h by default)', () => {
  for (const [name, hint] of HUGE_HINTS) {
    it(`${name}: held for an hour, not for ages, through a reload; the cap is the reason`, async () => {
      headers = hint;
      const r = rig(config());
      try {
        await r.monitor.runOnce();
        const first = requests;
        expect(first).toBeGreaterThan(0);
        const entry = clients(r.monitor);
        expect(entry).toMatchObject({ outcome: 'rate_limited', reason: 'retry_after_capped' });
        expect(entry?.detail).toMatch(
          /^HTTP 429 rate_limited: the server asked to wait \d+ years; the hold is capped at 1 h \(maxRateLimitHold\)$/,
        );
        expect(r.log()).toContain('the hold is capped at 1 h (maxRateLimitHold)');
        expect(r.log()).not.toContain(KEY);

        // Within the hour, also after a reload: held, nothing sent, and still saying why.
        r.advance(HOUR - 60_000);
        await r.monitor.reload({ ok: true, config: config() });
        await r.monitor.runOnce();
        expect(requests).toBe(first);
        const held = r.monitor.history.recent()[0];
        expect(held).toMatchObject({ outcome: 'rate_limited', reason: 'held_retry_after', sent: false });
        expect(held?.detail).toMatch(
          /^not sent: the key waits 60 s more for the server's Retry-After \(the server asked to wait \d+ years; the hold is capped at 1 h/,
        );

        // Past the cap: probed again.
        r.advance(60_001);
        await r.monitor.runOnce();
        expect(requests).toBeGreaterThan(first);
      } finally {
        await r.monitor.stop();
      }
    });
  }

  it('maxRateLimitHold: 10m in the config, and on /probes.json', async () => {
    headers = HUGE_HINTS[0]![1];
    const r = rig(config({ maxRateLimitHold: '10m' }));
    const server = await createMonitorServer(r.monitor, { host: '127.0.0.1', port: 0, logger: createLogger({ level: 'silent' }) });
    try {
      await r.monitor.runOnce();
      const json = JSON.stringify(await (await fetch(`${server.url}/probes.json`)).json());
      expect(json).toContain('the hold is capped at 10 min (maxRateLimitHold)');
      const page = await (await fetch(`${server.url}/`)).text();
      expect(page).toContain('<span class="reason">retry_after_capped</span>');
      const first = requests;
      r.advance(10 * 60_000 + 1);
      await r.monitor.runOnce();
      expect(requests).toBeGreaterThan(first);
    } finally {
      await server.close();
      await r.monitor.stop();
    }
  });

  it('a short hint is honoured as it is, without a cap note', async () => {
    headers = { 'retry-after': '120' };
    const r = rig(config());
    try {
      await r.monitor.runOnce();
      expect(clients(r.monitor)).toMatchObject({ reason: 'status_429', detail: 'HTTP 429 rate_limited' });
      const first = requests;
      r.advance(119_000);
      await r.monitor.runOnce();
      await r.monitor.runOnce();
      expect(requests).toBe(first);
      expect(keyless).toBe(1);
    } finally {
      await r.monitor.stop();
    }
  });

  it('lowering the cap with a reload shortens a hold already in force', async () => {
    headers = HUGE_HINTS[0]![1];
    const r = rig(config());
    try {
      await r.monitor.runOnce();
      const first = requests;
      await r.monitor.reload({ ok: true, config: config({ maxRateLimitHold: '1m' }) });
      r.advance(60_001);
      await r.monitor.runOnce();
      expect(requests).toBeGreaterThan(first);
    } finally {
      await r.monitor.stop();
    }
  });

  it('the schema refuses a cap under a second', () => {
    const parsed = parseConfigValue({ maxRateLimitHold: '10ms', targets: [] }, { env: {}, baseDir: process.cwd() });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.issues).toContainEqual({ path: 'maxRateLimitHold', message: 'must be at least 1s' });
  });
});

describe('checked, not changed: nothing sleeps on a huge hint', () => {
  it('the generated client stops at maxRetryAfterMs with hint_above_max, after one request', async () => {
    headers = HUGE_HINTS[0]![1];
    const client = createClient({
      baseUrl: `${origin}/api/v1`,
      apiKey: new ApiKey(KEY, 'nowak-test'),
      tenant: 'rowery-nowak',
      maxRetries: 3,
    });
    const started = Date.now();
    const error = await client.list('clients').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isRateLimitError(error)).toBe(true);
    expect(error).toMatchObject({ stopReason: 'hint_above_max', attempts: 1 });
    expect(requests).toBe(1);
    // Not a speed target: "did not sleep for years" (the default maxRetryAfterMs is 30 s).
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('the generated client refuses one huge hint for its own call only: the next call is sent', async () => {
    headers = HUGE_HINTS[0]![1];
    const client = createClient({
      baseUrl: `${origin}/api/v1`,
      apiKey: new ApiKey(KEY, 'nowak-test'),
      tenant: 'rowery-nowak',
      maxRetries: 0,
    });
    const call = () =>
      client.list('clients').then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(await call()).toMatchObject({ status: 429 });
    expect(requests).toBe(1);
    // A refused hint pauses nothing (issue 31: one absurd 429 locked the client out for an hour).
    expect(await call()).toMatchObject({ status: 429 });
    expect(requests).toBe(2);
  });

  it('repairmon probe stops at --max-wait and waits nothing', async () => {
    headers = HUGE_HINTS[0]![1];
    const target = parseTarget(`${origin}/api/v1`);
    if (!target.ok) throw new Error(target.reason);
    const waits: number[] = [];
    const report = await runDiagnosis({
      target: target.target,
      key: new ApiKey(KEY, 'nowak-test'),
      auth: 'bearer',
      platformPaths: [],
      tenant: 'rowery-nowak',
      timeoutS: 2,
      maxWaitS: 30,
      wait: async (ms) => void waits.push(ms),
    });
    expect(waits).toEqual([]);
    expect(report.traffic.stopped).toMatchObject({ kind: 'rate_limited', why: 'too_long' });
    // Support is not told to wait 1e15 s: not by the verdict, nor by a row of the table (20.6).
    expect(JSON.stringify(report.verdict)).not.toMatch(/wait \d{6,} s/);
    expect(JSON.stringify(report.verdict)).toMatch(/wait of years to the API team/);
    const table = renderDiagnosisTable(report, 'wide');
    expect(table).not.toMatch(/\d{6,} s/);
    expect(table).toMatch(/^FAIL .*rate-limit .*a broken hint: it asks to wait years/m);
  });
});
