/**
 * The canaries' line during a plain outage: every request answered 503, so no canary could
 * judge authorization. The page says "not judged: API failing" in the failing-API colour and
 * never shows the breach colour or calls them failing; a real breach still does both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MonitorServer, createMonitorServer } from '../../../monitor/http/server.js';
import { type Rig, silent, startRig } from '../helpers.js';

let rig: Rig;
let server: MonitorServer;
beforeAll(async () => {
  rig = await startRig({ aliases: ['nowak-test', 'kowalski-test'], schedule: '0 0 1 1 *' });
  server = await createMonitorServer(rig.monitor, { host: '127.0.0.1', port: 0, logger: silent });
});
afterAll(async () => {
  await server.close();
  await rig.close();
});

async function pageWith(faults: string): Promise<string> {
  rig.sandbox.setFaults(faults);
  await rig.monitor.runOnce();
  return (await fetch(`${server.url}/`)).text();
}

const canaryLine = (html: string): string => /<p>Canaries: .*?<\/p>/.exec(html)?.[0] ?? '(no canaries line)';

describe('the canaries while the API fails', () => {
  it('a 503 everywhere: "not judged: API failing" in the failing colour, no breach colour, nothing called failing', async () => {
    const html = await pageWith('status:503');
    const line = canaryLine(html);
    expect(line).toMatch(/^<p>Canaries: <span class="badge fail">\d+ not judged: API failing<\/span> · <a href/);
    expect(line).not.toMatch(/breach|cross_tenant|invalid_key/);
    expect(html).not.toContain('class="breach-banner"');
    expect(html).not.toContain('badge breach');
    // The canaries' table says why in each row.
    expect(html).toMatch(/<td class="muted">not judged: API failing: [^<]*503/);
    expect(html).toMatch(/<p>Reads answered: 0% <span class="muted">of the last \d+ s<\/span> · <b class="down">now: down /);
  });

  it('a real breach is still named, in the breach colour', async () => {
    const html = await pageWith('isolation-breach@/tenants/serwis-kowalski/clients');
    expect(canaryLine(html)).toMatch(/<span class="badge breach">1 got data \(breach\)<\/span> cross_tenant/);
    expect(canaryLine(html)).not.toContain('not judged');
  });
});
