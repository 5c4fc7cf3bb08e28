import { execFile } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMonitorServer, type MonitorServer } from '../../../monitor/http/server.js';
import { type Rig, silent, startRig } from '../helpers.js';
import { startPrometheus } from '../../../bench/lib/prometheus-server.js';
import { requireBinary } from './real-tools.js';

const prometheusBin = requireBinary('/usr/bin/prometheus', 'the real-Prometheus scrape test');
const promtoolBin = requireBinary('/usr/bin/promtool', 'the promtool check metrics test');

let rig: Rig;
let server: MonitorServer;
beforeAll(async () => {
  rig = await startRig({ aliases: ['platform-test', 'nowak-test', 'nowak-nologs-test'], schedule: '0 0 1 1 *' });
  server = await createMonitorServer(rig.monitor, { host: '127.0.0.1', port: 0, logger: silent });
  await rig.monitor.runOnce();
});
afterAll(async () => {
  await server.close();
  await rig.close();
});

test.skipIf(!promtoolBin)('promtool check metrics is clean on a real scrape', async () => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const child = execFile(promtoolBin!, ['check', 'metrics']);
  const done = new Promise<{ code: number | null; out: string }>((resolve) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
  child.stdin?.end(text);
  const { code, out } = await done;
  expect(out.trim()).toBe('');
  expect(code).toBe(0);
});

test.skipIf(!prometheusBin)(
  'a real Prometheus scrapes the monitor and PromQL returns repairmon_probe_success',
  async () => {
    const prometheus = await startPrometheus({ scrapeAddress: server.url.replace('http://', ''), jobName: 'repairmon' });
    try {
      const expr = 'repairmon_probe_success{key_alias="nowak-test",endpoint="clients",check="read"}';
      await prometheus.waitFor(expr, 30_000);
      const answer = await prometheus.query(expr);
      if (answer.status !== 'success') throw new Error(`query failed: ${answer.error}`);
      const [series] = answer.data.result as Array<{ metric: Record<string, string>; value: [number, string] }>;
      expect(series!.metric).toMatchObject({ job: 'repairmon', target: 'sandbox', tenant: 'rowery-nowak' });
      expect(series!.value[1]).toBe('1');
    } finally {
      await prometheus.close();
    }
  },
  60_000,
);
