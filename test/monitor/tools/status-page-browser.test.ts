import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMonitorServer, type MonitorServer } from '../../../monitor/http/server.js';
import { type Rig, silent, startRig } from '../helpers.js';
import { requireBinary } from './real-tools.js';

const chromiumBin = requireBinary('/usr/bin/chromium', 'the headless-Chromium status page test');

let rig: Rig;
let server: MonitorServer;
beforeAll(async () => {
  rig = await startRig({ aliases: ['platform-test', 'nowak-test', 'kowalski-test', 'nowak-nologs-test'], schedule: '0 0 1 1 *' });
  server = await createMonitorServer(rig.monitor, { host: '127.0.0.1', port: 0, logger: silent });
  for (let i = 0; i < 4; i += 1) await rig.monitor.runOnce();
  rig.sandbox.setFaults('status:503@/tenants/serwis-kowalski/bikes;isolation-breach');
  await rig.monitor.runOnce();
  rig.sandbox.setFaults('');
});
afterAll(async () => {
  await server.close();
  await rig.close();
});

test.skipIf(!chromiumBin)('headless Chromium renders the status grid; screenshot saved', async () => {
  const browser = await chromium.launch({
    executablePath: chromiumBin!,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const external: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(server.url)) external.push(req.url());
    });
    await page.goto(`${server.url}/`);
    await expect(page.locator('table.grid').count()).resolves.toBe(1);
    const cell = page.locator('td[data-probe="sandbox/kowalski-test/serwis-kowalski/bikes/read"] .badge');
    expect(await cell.textContent()).toBe('server_error');
    expect(await page.locator('td[data-probe="sandbox/nowak-test/rowery-nowak/clients/read"] .badge').textContent()).toBe('ok');
    expect(await page.locator('svg.spark polyline').count()).toBeGreaterThan(10);
    expect(await page.getByText('assertion_failed').count()).toBeGreaterThan(0);
    const file = join(tmpdir(), 'repairmon-status-page.png');
    await page.screenshot({ path: file, fullPage: true });
    console.log(`status page screenshot: ${file}`);
    expect(external).toEqual([]);
  } finally {
    await browser.close();
  }
}, 60_000);
