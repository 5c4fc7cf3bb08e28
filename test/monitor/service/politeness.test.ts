import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Rig, latest, seriesValue, startRig } from '../helpers.js';

let rig: Rig;
let clock = Date.now();

beforeAll(async () => {
  // A generous timeout: on a loaded machine a 1 s one turned some 429s into timeouts, which set
  // the Retry-After gauge to 0 and failed the first assertion for a reason this test is not about.
  rig = await startRig(
    { aliases: ['kowalski-test'], canaries: { invalid_key: false, public_docs: false }, timeoutMs: 5_000 },
    { now: () => clock },
  );
});
afterAll(async () => rig.close());

const sentBy = (alias: string): number => rig.sandbox.requests().filter((r) => r.keyAlias === alias).length;

test('after a 429 with Retry-After, the key is not probed again before the hint passes', async () => {
  rig.sandbox.setFaults('rate-limit-storm:2');
  await rig.monitor.runOnce();
  expect(sentBy('kowalski-test')).toBeGreaterThan(0);
  expect(latest(rig.monitor, { keyAlias: 'kowalski-test', endpoint: 'bikes', check: 'read' })).toMatchObject({
    outcome: 'rate_limited',
    reason: 'status_429',
  });
  const text = await rig.monitor.registry.metrics();
  expect(seriesValue(text, 'repairmon_probe_retry_after_seconds', { target: 'sandbox', key_alias: 'kowalski-test' })).toBe(2);

  // 1.9 s later by the monitor's clock: still inside the hint, nothing may be sent.
  rig.sandbox.setFaults('');
  rig.sandbox.clearRequests();
  clock += 1_900;
  await rig.monitor.runOnce();
  expect(sentBy('kowalski-test')).toBe(0);
  expect(latest(rig.monitor, { keyAlias: 'kowalski-test', endpoint: 'bikes', check: 'read' })).toMatchObject({
    outcome: 'rate_limited',
    reason: 'held_retry_after',
    sent: false,
  });

  // Once the hint has passed, probing resumes and succeeds.
  clock += 200;
  await rig.monitor.runOnce();
  expect(sentBy('kowalski-test')).toBeGreaterThan(0);
  expect(latest(rig.monitor, { keyAlias: 'kowalski-test', endpoint: 'bikes', check: 'read' })).toMatchObject({
    outcome: 'ok',
    success: true,
  });
  const after = await rig.monitor.registry.metrics();
  expect(seriesValue(after, 'repairmon_probe_retry_after_seconds', { target: 'sandbox', key_alias: 'kowalski-test' })).toBe(0);
});

test('a throttled key sends one probe at a time: after its 429 the other probes of the round see the hold and wait', async () => {
  rig.sandbox.setFaults('rate-limit-storm:2');
  // First contact: every probe is on its way before the first 429 comes back.
  await rig.monitor.runOnce();
  clock += 2_100;
  rig.sandbox.clearRequests();
  await rig.monitor.runOnce();
  expect(sentBy('kowalski-test')).toBe(1);
  const round = rig.monitor.history.recent().filter((e) => e.keyAlias === 'kowalski-test' && e.at >= clock);
  // `/` went first and got the 429; `/docs` is public, so it went without the held key (throttled.test.ts).
  expect(
    round
      .filter((e) => e.sent)
      .map((e) => e.endpoint)
      .sort(),
  ).toEqual(['docs', 'index']);
  expect(round.filter((e) => e.reason === 'held_retry_after').length).toBe(
    rig.monitor.plan().filter((p) => p.keyAlias === 'kowalski-test').length - 2,
  );

  // The storm is over: the first answer ends the throttled stretch, every probe is sent.
  rig.sandbox.setFaults('');
  clock += 2_100;
  rig.sandbox.clearRequests();
  await rig.monitor.runOnce();
  // Every probe but `/docs`, which is public: the sandbox does not look at its key.
  expect(sentBy('kowalski-test')).toBe(rig.monitor.plan().filter((p) => p.keyAlias === 'kowalski-test').length - 1);
  expect(latest(rig.monitor, { keyAlias: 'kowalski-test', endpoint: 'logs', check: 'read' })).toMatchObject({ outcome: 'ok' });
});
