/**
 * Key leaks this suite found, end to end over the monitor's HTTP surface, kept as regressions.
 * A server that echoes the presented key is hostile or buggy, but the monitor promises a key
 * never shows, whatever the server sends back.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.js';
import { CANARY_NAMES, type CanaryName } from '../../monitor/config/schema.js';
import { demoConfig } from '../../monitor/demo-config.js';
import { type MonitorServer, createMonitorServer } from '../../monitor/http/server.js';
import { type Monitor, createMonitor } from '../../monitor/service.js';
import { KEY_PREFIXES } from '../../api/contract/index.js';
import { readPresentedKey } from '../../api/contract/server/index.js';
import { keyRuns } from './leak-rig.js';

/** Shaped like the sandbox's keys: prefix + 32 random characters, 40 in all. */
const KEY = `${KEY_PREFIXES.test}${randomBytes(24).toString('base64url')}`;
const showsKey = (text: string): boolean => keyRuns(KEY).some((run) => text.includes(run));
let origin: ReturnType<typeof createServer>;
let monitor: Monitor;
let http: MonitorServer;

beforeAll(async () => {
  // Plain text quoting the key at the start (what a careless proxy or framework error page does),
  // and the key as the request id.
  origin = createServer((req, res) => {
    const presented = readPresentedKey(req.headers);
    const key = presented.kind === 'key' ? presented.key : 'none';
    res.writeHead(400, { 'content-type': 'text/plain', 'x-request-id': key });
    res.end(`${key} is not a valid key`);
  });
  origin.listen(0, '127.0.0.1');
  await once(origin, 'listening');
  const { port } = origin.address() as AddressInfo;
  const canaries = Object.fromEntries(CANARY_NAMES.map((n) => [n, false])) as Record<CanaryName, boolean>;
  const source = {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    tenants: ['rowery-nowak'],
    keys: [{ alias: 'echoed', kind: 'tenant' as const, tenant: 'rowery-nowak', revoked: false, key: KEY }],
  };
  monitor = createMonitor(demoConfig(source, { aliases: ['echoed'], canaries }), { logger: createLogger({ level: 'silent' }) });
  http = await createMonitorServer(monitor, { host: '127.0.0.1', port: 0, logger: createLogger({ level: 'silent' }) });
  await monitor.runOnce();
});

afterAll(async () => {
  await http?.close();
  await monitor?.stop();
  origin?.close();
  origin?.closeAllConnections();
});

const page = async (path: string): Promise<string> => (await fetch(`${http.url}${path}`)).text();

describe('a key the server echoes back', () => {
  it('control: the probes ran and failed as invalid_envelope, and the metrics are clean', async () => {
    expect(await page('/probes.json')).toContain('"outcome": "invalid_envelope"');
    expect(showsKey(await page('/metrics'))).toBe(false);
  });

  it('/probes.json and /probes never show the key from a non-JSON body (ProbeVerdict.detail -> history)', async () => {
    expect(showsKey(await page('/probes.json'))).toBe(false);
    expect(showsKey(await page('/probes'))).toBe(false);
  });

  it('/probe?debug=true never shows an echoed x-request-id (response.requestId)', async () => {
    const debug = await page('/probe?target=sandbox&key=echoed&endpoint=clients&tenant=rowery-nowak&debug=true');
    expect(debug).toContain('"outcome"');
    expect(showsKey(debug)).toBe(false);
  });
});
