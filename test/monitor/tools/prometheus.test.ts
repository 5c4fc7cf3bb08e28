import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMonitorServer, type MonitorServer } from '../../../monitor/http/server.js';
import { type Rig, silent, startRig } from '../helpers.js';
import { freePort, requireBinary, waitFor } from './real-tools.js';

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

test.skipIf(!prometheusBin)('a real Prometheus scrapes the monitor and PromQL returns repairmon_probe_success', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'repairmon-prom-'));
  const port = await freePort();
  const target = server.url.replace('http://', '');
  writeFileSync(
    join(dir, 'prometheus.yml'),
    ['global:', '  scrape_interval: 1s', 'scrape_configs:', '  - job_name: repairmon', '    static_configs:', `      - targets: ['${target}']`].join('\n'),
  );
  const prom: ChildProcess = spawn(
    prometheusBin!,
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: 'ignore' },
  );
  try {
    const query = encodeURIComponent('repairmon_probe_success{key_alias="nowak-test",endpoint="clients",check="read"}');
    const result = await waitFor(
      'a PromQL answer with repairmon_probe_success',
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${query}`);
        const body = (await res.json()) as { status: string; data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
        return body.data.result.length > 0 ? body.data.result : undefined;
      },
      30_000,
    );
    expect(result[0]!.metric).toMatchObject({ job: 'repairmon', target: 'sandbox', tenant: 'rowery-nowak' });
    expect(result[0]!.value[1]).toBe('1');
  } finally {
    prom.kill('SIGTERM');
    await new Promise((r) => prom.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
