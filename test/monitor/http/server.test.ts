import { request } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMonitorServer, type MonitorServer } from '../../../monitor/http/server.js';
import { type Rig, startRig, silent } from '../helpers.js';

let rig: Rig;
let server: MonitorServer;
beforeAll(async () => {
  rig = await startRig({ aliases: ['platform-test', 'nowak-test'], schedule: '0 0 1 1 *' });
  server = await createMonitorServer(rig.monitor, { host: '127.0.0.1', port: 0, logger: silent });
});
afterAll(async () => {
  await server.close();
  await rig.close();
});

const get = (path: string): Promise<Response> => fetch(`${server.url}${path}`);

test('health and readiness', async () => {
  expect((await get('/-/healthy')).status).toBe(200);
  expect((await get('/-/ready')).status).toBe(503);
  await rig.monitor.start();
  expect((await get('/-/ready')).status).toBe(200);
});

test('/metrics is Prometheus text from our registry, with process metrics', async () => {
  await rig.monitor.runOnce();
  const res = await get('/metrics');
  expect(res.headers.get('content-type')).toContain('text/plain');
  const text = await res.text();
  expect(text).toContain('repairmon_probe_success{');
  expect(text).toContain('process_cpu_user_seconds_total');
  expect(text).toMatch(/^repairmon_build_info\{version="[^"]+",node_version="v\d+/m);
});

test('/probes and its JSON twin', async () => {
  const json = (await (await get('/probes.json')).json()) as { recent: Array<{ id: string }>; failures: unknown[] };
  expect(json.recent.length).toBeGreaterThan(0);
  expect(json.recent[0]!.id).toMatch(/^sandbox\//);
  expect(await (await get('/probes')).text()).toContain('Recent probes');
});

test('/probe runs one configured probe by alias only, with a redacted debug view', async () => {
  expect((await get('/probe')).status).toBe(400);
  expect((await get('/probe?target=sandbox&key=nobody&endpoint=clients')).status).toBe(404);
  const res = await get('/probe?target=sandbox&key=nowak-test&endpoint=clients&debug=true');
  expect(res.status).toBe(200);
  const text = await res.text();
  const report = JSON.parse(text) as {
    outcome: { outcome: string };
    response: { status: number };
    metrics: string;
    request: { headers: Record<string, string> };
  };
  expect(report.outcome.outcome).toBe('ok');
  expect(report.response.status).toBe(200);
  expect(report.metrics).toContain('repairmon_probe_success{');
  expect(Object.values(report.request.headers).join(' ')).toContain('[REDACTED');
  for (const key of rig.sandbox.keys) expect(text).not.toContain(key.key);
  // Another key: nowak-test was just probed on demand and is paced (on-demand.test.ts).
  const plain = await (await get('/probe?target=sandbox&key=platform-test&endpoint=clients&tenant=rowery-nowak')).text();
  expect(plain).toContain('repairmon_probe_success{');
});

test('status page: server-rendered grid, no external assets', async () => {
  const html = await (await get('/')).text();
  expect(html).toContain('<table class="grid"');
  expect(html).toContain('data-probe="sandbox/nowak-test/rowery-nowak/clients/read"');
  expect(html).toContain('<svg class="spark"');
  expect(html).not.toMatch(/<script|<link|src="http/);
});

test('unknown paths and methods', async () => {
  expect((await get('/nope')).status).toBe(404);
  expect((await fetch(`${server.url}/metrics`, { method: 'DELETE' })).status).toBe(405);
});

test('without a token (the default loopback listener): a web page can neither rebind its name to read the views nor reload', async () => {
  for (const path of ['/probes.json', '/metrics', '/probe?target=sandbox&key=platform-test&endpoint=docs&debug=true']) {
    const res = await request(`${server.url}${path}`, { headers: { host: 'evil.example:9464' } });
    expect(res.statusCode, path).toBe(403);
    await res.body.dump();
  }
  const form = await request(`${server.url}/-/reload`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
    body: 'x',
  });
  expect(form.statusCode).toBe(403);
  await form.body.dump();
  const local = await request(`${server.url}/probes.json`, { headers: { host: `localhost:${new URL(server.url).port}` } });
  expect(local.statusCode).toBe(200);
  await local.body.dump();
});
