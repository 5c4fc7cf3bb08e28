/**
 * The debug view never shows customer data: tenant resources and /platform/ answers were read
 * with real keys, so only their shape, status, redacted headers and error code/message are
 * shown. Canary customers (name, phone, e-mail) are planted in a sandbox data file and must
 * appear nowhere on the monitor's surface, even when a breach hands another tenant's data to a
 * canary, and when the body is not JSON. `/docs` and `/` bodies are still shown.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MonitorServer, createMonitorServer } from '../../../monitor/http/server.js';
import { type Rig, startRig, silent } from '../helpers.js';
import { TENANT_RESOURCES } from '../../../api/contract/index.js';

const CANARIES = [
  'Zofia Kanarkowa',
  '+48 600 111 222',
  'zofia.kanarkowa@canary.example',
  'Kanarek-Rower-77',
  'Kanarkowy dziennik',
  'Jerzy Wróbelski',
  '+48 700 333 444',
];
const resources = (n: number) => ({
  clients: [{ id: `kl-${n}`, name: CANARIES[n === 1 ? 0 : 5], phone: CANARIES[n === 1 ? 1 : 6], email: CANARIES[2] }],
  bikes: [{ id: `b-${n}`, owner: CANARIES[0], frame: CANARIES[3] }],
  repairs: [{ id: `r-${n}`, note: `naprawa dla ${CANARIES[0]}` }],
  logs: [{ id: `l-${n}`, text: CANARIES[4] }],
});

let rig: Rig;
let server: MonitorServer;
// Each view below is a fresh on-demand probe: the clock moves past the per-key pacing between them.
let clock = Date.now();
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'repairmon-nobodies-'));
  const dataFile = join(dir, 'data.yaml');
  const all = [...TENANT_RESOURCES, 'platform'];
  writeFileSync(
    dataFile,
    YAML.stringify({
      tenants: [
        { slug: 'sklep-jeden', name: 'Sklep Jeden', city: 'Łódź', ...resources(1) },
        { slug: 'sklep-dwa', name: 'Sklep Dwa', city: 'Opole', ...resources(2) },
      ],
      keys: [
        { alias: 'platform-test', kind: 'platform', environment: 'test', scopes: all },
        { alias: 'jeden-test', kind: 'tenant', tenant: 'sklep-jeden', environment: 'test', scopes: all.slice(0, 4) },
        { alias: 'dwa-test', kind: 'tenant', tenant: 'sklep-dwa', environment: 'test', scopes: all.slice(0, 4) },
      ],
    }),
  );
  rig = await startRig({ schedule: '0 0 1 1 *' }, { now: () => clock }, { dataFile });
  server = await createMonitorServer(rig.monitor, { host: '127.0.0.1', port: 0, logger: silent });
});
afterAll(async () => {
  await server.close();
  await rig.close();
});

const get = async (path: string): Promise<string> => {
  clock += 60_000;
  return (await fetch(`${server.url}${path}`)).text();
};
const leaks = (text: string): string[] => CANARIES.filter((c) => text.includes(c) || text.includes(JSON.stringify(c).slice(1, -1)));

describe('debug=true shows no tenant bodies', () => {
  it('control: the canaries are really in the API answers', async () => {
    const key = rig.sandbox.key('jeden-test').key;
    const body = await (
      await fetch(`${rig.sandbox.baseUrl}/tenants/sklep-jeden/clients`, { headers: { authorization: `Bearer ${key}` } })
    ).text();
    expect(leaks(body).length).toBeGreaterThan(0);
  });

  it('each tenant resource and the platform read: shape, status and headers, no body', async () => {
    const views: [string, string][] = [
      ['jeden-test', 'clients&tenant=sklep-jeden'],
      ['dwa-test', 'bikes&tenant=sklep-dwa'],
      ['platform-test', 'repairs&tenant=sklep-jeden'],
      ['platform-test', 'logs&tenant=sklep-dwa'],
    ];
    for (const [key, where] of views) {
      const text = await get(`/probe?target=sandbox&key=${key}&endpoint=${where}&debug=true`);
      const report = JSON.parse(text) as { response: Record<string, unknown>; outcome: { outcome: string } };
      expect(report.outcome.outcome, where).toBe('ok');
      expect(report.response, where).toMatchObject({ status: 200, envelope: { valid: true, ok: true, data: { type: 'array', items: 1 } } });
      expect(report.response['bodyExcerpt'], where).toBeUndefined();
      expect(report.response['body'], where).toMatch(
        /^not shown: \/tenants\/sklep-(jeden|dwa)\/\w+ answers with a tenant's or the platform's data/,
      );
      expect(leaks(text), where).toEqual([]);
    }
  });

  it("a tenant-isolation breach hands another tenant's customers to the canary: still not shown", async () => {
    rig.sandbox.setFaults('isolation-breach');
    const text = await get('/probe?target=sandbox&key=jeden-test&endpoint=clients&tenant=sklep-dwa&check=cross_tenant&debug=true');
    rig.sandbox.setFaults('');
    expect(text).toContain('"outcome": "assertion_failed"');
    expect(text).toContain('tenant_isolation_breach');
    expect(leaks(text)).toEqual([]);
  });

  it('an error shows its code and message; a body that is not JSON is not quoted', async () => {
    rig.sandbox.setFaults('invalid-json@/tenants/sklep-dwa/logs');
    const broken = await get('/probe?target=sandbox&key=dwa-test&endpoint=logs&tenant=sklep-dwa&debug=true');
    rig.sandbox.setFaults('');
    expect(broken).toContain('"problem": "not_json"');
    expect(broken).toContain('body not shown');
    expect(broken).not.toContain('starts with');
    const refused = JSON.parse(
      await get('/probe?target=sandbox&key=dwa-test&endpoint=clients&tenant=sklep-jeden&check=cross_tenant&debug=true'),
    ) as { response: { envelope: unknown } };
    expect(refused.response.envelope).toMatchObject({
      valid: true,
      ok: false,
      error: { code: 'tenant_key_tenant_mismatch', message: expect.any(String) },
    });
  });

  it('/docs shows its body (no tenant data there)', async () => {
    const report = JSON.parse(await get('/probe?target=sandbox&key=platform-test&endpoint=docs&debug=true')) as {
      response: { bodyExcerpt: string };
    };
    expect(report.response.bodyExcerpt).toContain('"ok":true');
  });

  it('no other page shows them either: /probes, /probes.json, the status page, /metrics', async () => {
    await rig.monitor.runOnce();
    for (const path of ['/probes', '/probes.json', '/', '/metrics']) expect(leaks(await get(path)), path).toEqual([]);
  });
});
