/**
 * On-demand probes spend real quota: paced per key (one per http.onDemandInterval, 429 with
 * Retry-After otherwise), and they share the key's 429 hold with the scheduled probes, both
 * ways: a hold the schedule got stops /probe, a hold /probe got stops the schedule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MonitorServer, createMonitorServer } from '../../../monitor/http/server.js';
import { onDemandGate } from '../../../monitor/http/debug-probe.js';
import { type Rig, latest, startRig, silent } from '../helpers.js';

describe('the gate (pure)', () => {
  it('first call passes; within the interval it waits the rest; a server hold comes first', () => {
    expect(onDemandGate(undefined, 1_000, 10_000, 0)).toEqual({ ok: true });
    expect(onDemandGate(1_000, 4_000, 10_000, 0)).toEqual({ ok: false, reason: 'interval', retryAfterMs: 7_000 });
    expect(onDemandGate(1_000, 11_000, 10_000, 0)).toEqual({ ok: true });
    expect(onDemandGate(undefined, 1_000, 10_000, 2_500)).toEqual({ ok: false, reason: 'retry_after', retryAfterMs: 2_500 });
  });
});

describe('the server', () => {
  let rig: Rig;
  let server: MonitorServer;
  let clock = Date.now();
  beforeAll(async () => {
    rig = await startRig(
      {
        aliases: ['nowak-test', 'kowalski-test', 'gdansk-test'],
        schedule: '0 0 1 1 *',
        canaries: { invalid_key: false, public_docs: false },
      },
      { now: () => clock },
    );
    server = await createMonitorServer(rig.monitor, { host: '127.0.0.1', port: 0, logger: silent });
  });
  afterAll(async () => {
    await server.close();
    await rig.close();
  });
  const sentBy = (alias: string): number => rig.sandbox.requests().filter((r) => r.keyAlias === alias).length;
  const probe = (alias: string, tenant: string, endpoint = 'clients'): Promise<Response> =>
    fetch(`${server.url}/probe?target=sandbox&key=${alias}&endpoint=${endpoint}&tenant=${tenant}&debug=true`);

  it('40 parallel calls for one key: one runs, 39 get 429 with Retry-After, the API sees one request', async () => {
    rig.sandbox.clearRequests();
    const answers = await Promise.all(Array.from({ length: 40 }, () => probe('nowak-test', 'rowery-nowak')));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(39);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(await refused.text()).toMatch(
      /key nowak-test on target sandbox was probed on demand less than 10 s ago \(http\.onDemandInterval\).*try again in 10 s/,
    );
    await Promise.all(answers.filter((r) => r !== refused).map((r) => r.text()));
    expect(sentBy('nowak-test')).toBe(1);
  });

  it('another key is not held back, and the same key runs again once the interval has passed', async () => {
    expect((await probe('kowalski-test', 'serwis-kowalski')).status).toBe(200);
    clock += 6_000;
    const early = await probe('nowak-test', 'rowery-nowak');
    expect([early.status, early.headers.get('retry-after')]).toEqual([429, '4']);
    clock += 4_000;
    expect((await probe('nowak-test', 'rowery-nowak', 'bikes')).status).toBe(200);
  });

  it('a 429 hold from the schedule refuses /probe without sending', async () => {
    rig.sandbox.setFaults('rate-limit-storm:5@/tenants/cykl-gdansk/**');
    await rig.monitor.runOnce();
    expect(latest(rig.monitor, { keyAlias: 'gdansk-test', endpoint: 'clients', check: 'read' })).toMatchObject({
      outcome: 'rate_limited',
      reason: 'status_429',
    });
    rig.sandbox.setFaults('');
    rig.sandbox.clearRequests();
    clock += 2_000;
    const held = await probe('gdansk-test', 'cykl-gdansk');
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toBe('3');
    expect(await held.text()).toContain(
      "key gdansk-test on target sandbox is waiting out the API's Retry-After; the scheduled probes wait too",
    );
    expect(sentBy('gdansk-test')).toBe(0);
  });

  it('a 429 hold from /probe holds the scheduled probes of that key', async () => {
    clock += 20_000;
    rig.sandbox.setFaults('rate-limit-storm:5@/tenants/serwis-kowalski/**');
    const report = (await (await probe('kowalski-test', 'serwis-kowalski', 'repairs')).json()) as {
      outcome: { outcome: string; retryAfterMs: number };
    };
    expect(report.outcome).toMatchObject({ outcome: 'rate_limited', retryAfterMs: 5_000 });
    rig.sandbox.setFaults('');
    rig.sandbox.clearRequests();
    clock += 1_000;
    await rig.monitor.runOnce();
    expect(sentBy('kowalski-test')).toBe(0);
    expect(latest(rig.monitor, { keyAlias: 'kowalski-test', endpoint: 'bikes', check: 'read' })).toMatchObject({
      outcome: 'rate_limited',
      reason: 'held_retry_after',
      sent: false,
    });
    expect(sentBy('nowak-test')).toBeGreaterThan(0);
  });
});
