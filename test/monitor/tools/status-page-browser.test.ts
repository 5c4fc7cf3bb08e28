import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMonitorServer, type MonitorServer } from '../../../monitor/http/server.js';
import { toolAvailable } from '../../helpers/tools.js';
import { type Rig, silent, startRig } from '../helpers.js';
import { requireBinary } from './real-tools.js';

const chromiumBin = requireBinary('/usr/bin/chromium', 'the headless-Chromium status page test');

/** axe-core from node_modules (a dev dependency), or undefined when it is not installed. */
function axeScript(): string | undefined {
  try {
    const path = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

let rig: Rig;
let server: MonitorServer;
let browser: Browser | undefined;
beforeAll(async () => {
  rig = await startRig({ aliases: ['platform-test', 'nowak-test', 'kowalski-test', 'nowak-nologs-test'], schedule: '0 0 1 1 *' });
  server = await createMonitorServer(rig.monitor, { host: '127.0.0.1', port: 0, logger: silent });
  for (let i = 0; i < 4; i += 1) await rig.monitor.runOnce();
  rig.sandbox.setFaults('status:503@/tenants/serwis-kowalski/bikes;html-502@/tenants/serwis-kowalski/repairs;isolation-breach');
  await rig.monitor.runOnce();
  rig.sandbox.setFaults('');
  if (chromiumBin) {
    browser = await chromium.launch({
      executablePath: chromiumBin,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
  }
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server.close();
  await rig.close();
});

test.skipIf(!chromiumBin)(
  'headless Chromium renders the status grid, breaches first, reasons in cells; screenshot saved',
  async () => {
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
    const external: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(server.url)) external.push(req.url());
    });
    await page.goto(`${server.url}/`);
    await expect(page.locator('table.grid').count()).resolves.toBe(1);
    expect(await page.locator('main > section').first().getAttribute('class')).toBe('breach-banner');
    expect(await page.getByRole('alert').getByText('tenant isolation').count()).toBeGreaterThan(0);
    const cell = page.locator('td[data-probe="sandbox/kowalski-test/serwis-kowalski/bikes/read"]');
    expect(await cell.locator('.badge').textContent()).toBe('server_error');
    expect(await cell.locator('.reason').textContent()).toBe('status_503');
    expect(await page.locator('td[data-probe="sandbox/kowalski-test/serwis-kowalski/repairs/read"] .reason').textContent()).toBe(
      'status_502 · HTML page',
    );
    expect(await page.locator('td[data-probe="sandbox/nowak-test/rowery-nowak/clients/read"] .badge').textContent()).toBe('ok');
    expect(await page.locator('svg.spark polyline').count()).toBeGreaterThan(10);
    expect(await page.getByText('assertion_failed').count()).toBeGreaterThan(0);
    const file = join(tmpdir(), 'repairmon-status-page.png');
    await page.screenshot({ path: file, fullPage: true });
    console.log(`status page screenshot: ${file}`);
    expect(external).toEqual([]);
    await page.close();
  },
  60_000,
);

interface Fit {
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly lastColumn: string;
  readonly lastColumnRight: number;
}

test.skipIf(!chromiumBin)(
  'at 1280 px the grid fits (its last column, logs, in view; nothing scrolls sideways), the canaries line is above the fold, a history bar per target',
  async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${server.url}/`);
      const fit = await page.evaluate((): Fit => {
        type Box = { getBoundingClientRect(): { right: number }; textContent: string | null };
        const doc = (
          globalThis as unknown as {
            document: { documentElement: { scrollWidth: number; clientWidth: number }; querySelector(s: string): Box };
          }
        ).document;
        const last = doc.querySelector('table.grid thead th:last-child');
        return {
          scrollWidth: doc.documentElement.scrollWidth,
          clientWidth: doc.documentElement.clientWidth,
          lastColumn: last.textContent ?? '',
          lastColumnRight: last.getBoundingClientRect().right,
        };
      });
      expect(fit.lastColumn).toBe('logs');
      expect(fit.scrollWidth).toBeLessThanOrEqual(fit.clientWidth);
      expect(fit.lastColumnRight).toBeLessThanOrEqual(fit.clientWidth);
      const canaries = await page.getByText('Canaries:').first().boundingBox();
      expect(canaries!.y + canaries!.height).toBeLessThanOrEqual(800);
      expect(await page.locator('section[id^="target-"] svg.history').count()).toBe(await page.locator('section[id^="target-"]').count());
      const file = join(tmpdir(), 'repairmon-status-page-1280.png');
      await page.screenshot({ path: file, fullPage: true });
      console.log(`status page at 1280 px: ${file}`);
    } finally {
      await page.close();
    }
  },
  60_000,
);

test.skipIf(!chromiumBin)(
  'the page renders the same without JavaScript (server-side only)',
  async () => {
    const context = await browser!.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      expect(await page.locator('.breach-banner tbody tr').count()).toBe(3);
      expect(await page.locator('td[data-probe="sandbox/kowalski-test/serwis-kowalski/bikes/read"] .reason').textContent()).toBe(
        'status_503',
      );
      expect(await page.locator('script').count()).toBe(0);
    } finally {
      await context.close();
    }
  },
  60_000,
);

test.skipIf(!chromiumBin)(
  'axe-core finds no serious or critical accessibility violation',
  async (ctx) => {
    const script = axeScript();
    if (
      !toolAvailable(
        script !== undefined,
        'the accessibility check of the status page',
        'the dev dependency axe-core (npm install --save-dev axe-core)',
      )
    )
      return ctx.skip();
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
    try {
      await page.goto(`${server.url}/`);
      // Injected from the local file: the page itself loads nothing.
      await page.addScriptTag({ path: script! });
      const violations = await page.evaluate(async () => {
        const axe = (
          globalThis as unknown as {
            axe: {
              run(
                context: unknown,
                options: unknown,
              ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: unknown }[] }[] }>;
            };
          }
        ).axe;
        const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
        });
        return result.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.slice(0, 3).map((n) => n.target),
        }));
      });
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    } finally {
      await page.close();
    }
  },
  60_000,
);
