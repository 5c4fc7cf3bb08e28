/**
 * The status page: breaches first in a banner, outages now counted, each failed cell with its
 * reason (and "HTML page"), a history bar per target, uptime over the kept window and, from
 * Prometheus, over 24 h / 7 d / 30 d, each with the data behind it; a Prometheus that does not
 * answer (or answers without end) shows "unavailable" and never breaks, stalls or bloats the page.
 */
import { once } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MonitorServer, createMonitorServer } from '../../../monitor/http/server.js';
import {
  PROMETHEUS_ANSWER_LIMIT,
  coverageOf,
  createUptimeSource,
  fetchUptime,
  parseVector,
  uptimeOf,
} from '../../../monitor/http/uptime.js';
import { type Rig, silent, startRig } from '../helpers.js';

/** Seconds of data the stand-in holds: every window's figure comes from 19 minutes. */
const HELD_SECONDS = 19 * 60;

/** A Prometheus stand-in: answers instant queries with one value per series, hangs, or streams 1 MiB chunks without end. */
async function fakePrometheus(
  mode: 'answer' | 'hang' | 'endless',
): Promise<{ url: string; queries: string[]; sent: () => number; close(): Promise<void> }> {
  const queries: string[] = [];
  let sent = 0;
  const server: Server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://p').searchParams.get('query') ?? '';
    queries.push(query);
    if (mode === 'hang') return;
    if (mode === 'endless') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const more = (): void => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed) res.once('drain', more);
      };
      return more();
    }
    if (query.includes('assertion_failed')) {
      const breach = {
        metric: { target: 'sandbox', endpoint: 'clients', tenant: 'rowery-nowak', key_alias: 'kowalski-test', check: 'cross_tenant' },
        value: [1, '2.0004'],
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [breach] } }));
    }
    const value = query.startsWith('min_over_time')
      ? String(Date.now() / 1000 - HELD_SECONDS)
      : query.endsWith('[24h])')
        ? '0.9996'
        : query.endsWith('[7d])')
          ? '0.9'
          : '0.5';
    const series = (tenant: string, alias: string, endpoint: string) => ({
      metric: { __name__: 'x', target: 'sandbox', tenant, key_alias: alias, endpoint, check: 'read', job: 'repairmon' },
      value: [1, value],
    });
    const result = [
      series('rowery-nowak', 'nowak-test', 'clients'),
      series('rowery-nowak', 'nowak-test', 'bikes'),
      series('serwis-kowalski', 'kowalski-test', 'clients'),
    ];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result } }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    queries,
    sent: () => sent,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}

describe('uptime (pure parts)', () => {
  it('reads a vector and averages the matching series', () => {
    const parsed = parseVector({
      status: 'success',
      data: {
        resultType: 'vector',
        result: [
          { metric: { target: 'a', tenant: 'x' }, value: [1, '1'] },
          { metric: { target: 'a', tenant: 'y' }, value: [1, '0.5'] },
        ],
      },
    });
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(uptimeOf(parsed.samples, { target: 'a' })).toBe(0.75);
    expect(uptimeOf(parsed.samples, { target: 'a', tenant: 'y' })).toBe(0.5);
    expect(uptimeOf(parsed.samples, { target: 'b' })).toBeUndefined();
    expect(parseVector({ status: 'error' })).toEqual({ ok: false, reason: 'Prometheus did not answer with a vector' });
  });

  it('a hanging Prometheus gives "unavailable" within the timeout; answers are cached', async () => {
    const hang = await fakePrometheus('hang');
    try {
      const started = Date.now();
      const uptime = await fetchUptime({ prometheusUrl: hang.url, prometheusTimeoutMs: 300 });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(uptime).toEqual({ kind: 'unavailable', reason: `Prometheus at ${hang.url} did not answer (no answer within 300 ms)` });
    } finally {
      await hang.close();
    }
    let calls = 0;
    let clock = 0;
    const source = createUptimeSource({ now: () => clock, fetch: async () => (calls++, { kind: 'unavailable', reason: 'x' }) });
    const settings = { prometheusUrl: 'http://p', prometheusTimeoutMs: 100 };
    await source.read(settings);
    await source.read(settings);
    expect(calls).toBe(1);
    clock += 61_000;
    await source.read(settings);
    expect(calls).toBe(2);
  });

  it('an answer without end is cut at the size cap: "unavailable", the monitor does not grow with it', async () => {
    const endless = await fakePrometheus('endless');
    try {
      const uptime = await fetchUptime({ prometheusUrl: endless.url, prometheusTimeoutMs: 5_000 });
      expect(uptime).toEqual({
        kind: 'unavailable',
        reason: `Prometheus at ${endless.url} did not answer (answer over ${PROMETHEUS_ANSWER_LIMIT} bytes)`,
      });
      // What was read stops at the cap (plus what the sockets buffer), not at the timeout.
      expect(endless.sent()).toBeLessThan(PROMETHEUS_ANSWER_LIMIT * 7 + 64 * 1024 * 1024);
    } finally {
      await endless.close();
    }
  });

  it('coverage: the data behind a figure, from the earliest run in the window', () => {
    const since = [
      { labels: { target: 'a', tenant: 'x' }, value: 1_000 },
      { labels: { target: 'a', tenant: 'y' }, value: 1_600 },
    ];
    expect(coverageOf(since, { target: 'a' }, 2_140)).toBe(1_140);
    expect(coverageOf(since, { target: 'a', tenant: 'y' }, 2_140)).toBe(540);
    expect(coverageOf(since, { target: 'b' }, 2_140)).toBeUndefined();
  });
});

describe('the page', () => {
  let rig: Rig;
  let server: MonitorServer;
  beforeAll(async () => {
    rig = await startRig({ aliases: ['nowak-test', 'kowalski-test'], schedule: '0 0 1 1 *', timeoutMs: 3_000 });
    server = await createMonitorServer(rig.monitor, { host: '127.0.0.1', port: 0, logger: silent });
    await rig.monitor.runOnce();
    rig.sandbox.setFaults(
      'html-502@/tenants/serwis-kowalski/bikes;latency:5000@/tenants/serwis-kowalski/logs;isolation-breach@/tenants/serwis-kowalski/clients',
    );
    await rig.monitor.runOnce();
    rig.sandbox.setFaults('');
  });
  afterAll(async () => {
    await server.close();
    await rig.close();
  });
  const page = async (path = '/'): Promise<string> => (await fetch(`${server.url}${path}`)).text();

  it('the breach banner comes first, with target, key alias, tenant and when', async () => {
    const html = await page();
    const banner = html.indexOf('class="breach-banner"');
    expect(banner).toBeGreaterThan(0);
    expect(banner).toBeLessThan(html.indexOf('class="summary"'));
    expect(banner).toBeLessThan(html.indexOf('id="target-sandbox"'));
    const section = html.slice(banner, html.indexOf('</section>', banner));
    expect(section).toContain('role="alert"');
    expect(section).toMatch(/Security: 1 probe got data where the API must refuse \(1 ongoing\)/);
    expect(section).toMatch(
      /<td>tenant isolation<\/td><td>sandbox<\/td><td>nowak-test<\/td><td>serwis-kowalski<\/td><td>clients <span class="muted">\(cross_tenant\)<\/span><\/td><td><time datetime="\d{4}-\d\d-\d\dT/,
    );
  });

  it('failed cells say why: status_502 and HTML page, timeout_headers', async () => {
    const html = await page();
    const cellOf = (id: string): string => {
      const at = html.indexOf(`data-probe="${id}"`);
      return html.slice(at, html.indexOf('</td>', at));
    };
    expect(cellOf('sandbox/kowalski-test/serwis-kowalski/bikes/read')).toContain('<span class="reason">status_502 · HTML page</span>');
    expect(cellOf('sandbox/kowalski-test/serwis-kowalski/logs/read')).toContain('<span class="reason">timeout_headers</span>');
    expect(cellOf('sandbox/nowak-test/rowery-nowak/bikes/read')).not.toContain('class="reason"');
  });

  it('uptime over the kept window per row and target, with the time it covers; 24 h / 7 d / 30 d need a Prometheus URL', async () => {
    const html = await page();
    expect(html).toContain('<th scope="col">reads answered</th>');
    expect(html).toMatch(/<p>Reads answered: \d+(\.\d)?% <span class="muted">of the last \d+ s<\/span> · /);
    expect(html).toMatch(
      /<th scope="row">rowery-nowak<\/th><td class="muted">nowak-test<\/td><td class="up">100% <span class="muted">of the last \d+ s<\/span><\/td>/,
    );
    expect(html).toMatch(
      /<th scope="row">serwis-kowalski<\/th><td class="muted">kowalski-test<\/td><td class="up">75% <span class="muted">of the last \d+ s<\/span><\/td>/,
    );
    expect(html).toContain('24 h / 7 d / 30 d need <code>statusPage.prometheusUrl</code>');
    expect(html).not.toMatch(/<script|http-equiv="refresh"/);
    expect(await page('/?refresh=10')).toContain('<meta http-equiv="refresh" content="10">');
  });

  it('outages now are counted: the summary and each target say what is down; a history bar per target', async () => {
    const html = await page();
    expect(html).toContain('<span class="down"><b>1</b> target with an outage now</span>');
    expect(html).toContain('<b class="down">now: down bikes, logs</b>');
    expect(html.match(/<svg class="history"/g)).toHaveLength(1);
    expect(html).toMatch(/<svg class="history"[^>]*aria-label="history of the last \d+ min in 40 slots: [1-9]\d* with failures"/);
    expect(html).toMatch(
      /Canaries: <span class="badge breach">1 got data \(breach\)<\/span> cross_tenant · <a href="#canaries-sandbox">details<\/a>/,
    );
  });

  it('with Prometheus: the long windows per row and target from avg_over_time queries, each with the data behind it, rounded down', async () => {
    const prom = await fakePrometheus('answer');
    const config = rig.monitor.config();
    await rig.monitor.reload({ ok: true, config: { ...config, statusPage: { prometheusUrl: prom.url, prometheusTimeoutMs: 1_000 } } });
    try {
      const html = await page();
      expect(prom.queries.sort()).toEqual([
        ...['24h', '30d', '7d'].map((w) => `avg_over_time(repairmon_probe_success{check="read"}[${w}])`),
        ...['24h', '30d', '7d'].map((w) => `min_over_time(repairmon_probe_last_run_timestamp_seconds{check="read"}[${w}])`),
        'sum by (target, endpoint, tenant, key_alias, check) (increase(repairmon_probes_total{outcome="assertion_failed"}[24h])) > 0',
      ]);
      const of19 = '<span class="muted">of 19 min</span>';
      expect(html).toContain(`nowak-test</td><td class="up">100% <span class="muted">of the last `);
      expect(html).toContain(`<br>24 h 99.9% ${of19}<br>7 d 90% ${of19}<br>30 d 50% ${of19}</td>`);
      expect(html).toContain(`24 h 99.9% ${of19} · 7 d 90% ${of19} · 30 d 50% ${of19} · <b class="down">now: down bikes, logs</b>`);
      // Breaches Prometheus counted, also from before a restart, join the banner.
      expect(html).toContain('<h3>Counted by Prometheus in the last 24 h (also before a restart)</h3>');
      expect(html).toContain(
        '<td>sandbox</td><td>kowalski-test</td><td>rowery-nowak</td><td>clients <span class="muted">(cross_tenant)</span></td><td>2</td>',
      );
    } finally {
      await prom.close();
    }
  });

  it('after a restart (nothing in memory), the banner still shows the breaches Prometheus counted', async () => {
    const prom = await fakePrometheus('answer');
    const fresh = await startRig({ aliases: ['nowak-test'], schedule: '0 0 1 1 *' });
    const config = fresh.monitor.config();
    await fresh.monitor.reload({ ok: true, config: { ...config, statusPage: { prometheusUrl: prom.url, prometheusTimeoutMs: 1_000 } } });
    const http = await createMonitorServer(fresh.monitor, { host: '127.0.0.1', port: 0, logger: silent });
    try {
      const html = await (await fetch(`${http.url}/`)).text();
      const banner = html.slice(html.indexOf('class="breach-banner"'));
      expect(banner).toContain('Security: 1 probe got data where the API must refuse in the last 24 h');
      expect(banner.indexOf('kowalski-test')).toBeGreaterThan(0);
    } finally {
      await http.close();
      await fresh.close();
      await prom.close();
    }
  });

  it('a Prometheus that is down: "unavailable", the rest of the page as usual', async () => {
    const config = rig.monitor.config();
    await rig.monitor.reload({
      ok: true,
      config: { ...config, statusPage: { prometheusUrl: 'http://127.0.0.1:9', prometheusTimeoutMs: 500 } },
    });
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('24 h / 7 d / 30 d unavailable: Prometheus at http://127.0.0.1:9 did not answer');
    expect(html).toContain('<br><span class="muted">long windows unavailable</span></td>');
    expect(html).toContain('class="breach-banner"');
  });
});
