import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Rig, latest, seriesValue, startRig } from '../helpers.js';

let rig: Rig;
let clock = Date.now();

beforeAll(async () => {
  // A generous timeout: on a loaded machine a 1 s one turned some 429s into timeouts, which set
  // the Retry-After gauge to 0 and failed the first assertion for a reason this test is not about.
  rig = await startRig({ aliases: ['kowalski-test'], canaries: { invalid_key: false, public_docs: false }, timeoutMs: 5_000 }, { now: () => clock });
});
afterAll(async () => rig.close());

const sentBy = (alias: string): number => rig.sandbox.requests().filter((r) => r.keyAlias === alias).length;

test('after a 429 with Retry-After, the key is not probed again before the hint passes', async () => {
  rig.sandbox.setFaults('rate-limit-storm:2');
  await rig.monitor.runOnce();
  expect(sentBy('kowalski-test')).toBeGreaterThan(0);
  expect(latest(rig.monitor, { keyAlias: 'kowalski-test', endpoint: 'bikes', check: 'read' })).toMatchObject({ outcome: 'rate_limited', reason: 'status_429' });
  const text = await rig.monitor.registry.metrics();
  expect(seriesValue(text, 'repairmon_probe_retry_after_seconds', { target: 'sandbox', key_alias: 'kowalski-test' })).toBe(2);

  // 1.9 s later by the monitor's clock: still inside the hint, nothing may be sent.
  rig.sandbox.setFaults('');
  rig.sandbox.clearRequests();
  clock += 1_900;
  await rig.monitor.runOnce();
  expect(sentBy('kowalski-test')).toBe(0);
  expect(latest(rig.monitor, { keyAlias: 'kowalski-test', endpoint: 'bikes', check: 'read' })).toMatchObject({ outcome: 'rate_limited', reason: 'held_retry_after', sent: false });

  // Once the hint has passed, probing resumes and succeeds.
  clock += 200;
  await rig.monitor.runOnce();
  expect(sentBy('kowalski-test')).toBeGreaterThan(0);
  expect(latest(rig.monitor, { keyAlias: 'kowalski-test', endpoint: 'bikes', check: 'read' })).toMatchObject({ outcome: 'ok', success: true });
  const after = await rig.monitor.registry.metrics();
  expect(seriesValue(after, 'repairmon_probe_retry_after_seconds', { target: 'sandbox', key_alias: 'kowalski-test' })).toBe(0);
});
