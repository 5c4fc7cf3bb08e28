import { afterAll, beforeAll, expect, test } from 'vitest';
import { CANARY_NAMES } from '../../../monitor/config/schema.js';
import { type Rig, latest, startRig } from '../helpers.js';

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({ aliases: ['platform-test', 'nowak-test', 'kowalski-test'] });
});
afterAll(async () => rig.close());

const verdicts = () =>
  Object.fromEntries(
    CANARY_NAMES.map((check) => {
      const e = latest(rig.monitor, {
        check,
        ...(check === 'other_header' || check === 'cross_tenant' || check === 'platform_refused' ? { keyAlias: 'nowak-test' } : {}),
      });
      return [check, `${e.outcome}/${e.success}`];
    }),
  );

test('every canary passes against a healthy sandbox', async () => {
  await rig.monitor.runOnce();
  expect(verdicts()).toEqual({
    cross_tenant: 'tenant_mismatch/true',
    invalid_key: 'unauthorized/true',
    public_docs: 'ok/true',
    other_header: 'ok/true',
    platform_refused: 'forbidden/true',
    // The sandbox's /docs says its / needs a key, so the demo config asserts that reading.
    index_access: 'unauthorized/true',
  });
});

test('every canary fails when the API misbehaves (429 storm without a hint: no hold, no pass)', async () => {
  rig.sandbox.setFaults('rate-limit-storm');
  await rig.monitor.runOnce();
  rig.sandbox.setFaults('');
  expect(Object.values(verdicts())).toEqual(CANARY_NAMES.map(() => 'rate_limited/false'));
});

test('under isolation-breach the cross-tenant canary reports the breach', async () => {
  rig.sandbox.setFaults('isolation-breach');
  await rig.monitor.runOnce();
  rig.sandbox.setFaults('');
  expect(verdicts()).toMatchObject({ cross_tenant: 'assertion_failed/false', invalid_key: 'unauthorized/true', public_docs: 'ok/true' });
  const breach = latest(rig.monitor, { check: 'cross_tenant', keyAlias: 'kowalski-test' });
  expect(breach.reason).toBe('tenant_isolation_breach');
  expect(breach.detail).toContain('tenant-isolation breach');
  expect(rig.monitor.history.failures().some((f) => f.check === 'cross_tenant')).toBe(true);
});
