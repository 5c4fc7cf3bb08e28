/**
 * Rechecks against the real sandbox, on a real two-second schedule: a read failing on the
 * service's side is probed again `recheckAfter` (333 ms) later, so it reaches `failureThreshold`
 * within one interval; a read the key is refused on, and a healthy one, keep the schedule's pace. Offsets are fixed (`random`), so a probe's ticks are a whole
 * interval apart and any shorter gap is a recheck. Two seconds, not one: a recheck must start
 * before the next tick, and a cold first round of ~20 probes on a loaded CI machine took longer
 * than the 667 ms a one-second schedule leaves.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoConfig } from '../../../monitor/demo-config.js';
import { type Monitor, createMonitor } from '../../../monitor/service.js';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { seriesValue, silent } from '../helpers.js';
import { waitFor } from '../../helpers/rig.js';

const SCHEDULE = '*/2 * * * * *';
const withRecheck = (config: ReturnType<typeof demoConfig>, extra: { failureThreshold?: number } = {}) => ({
  ...config,
  targets: config.targets.map((t) => ({ ...t, recheckAfterMs: 333, ...extra })),
});

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
  sandbox.setFaults('status:503@/tenants/*/bikes');
});
afterAll(async () => sandbox.close());

const gaps = (monitor: Monitor, keyAlias: string, endpoint: string): number[] => {
  const spec = monitor.plan().find((p) => p.keyAlias === keyAlias && p.endpoint === endpoint && p.check === 'read');
  const at = monitor.history.window(spec!.id).map((e) => e.at);
  return at.slice(1).map((t, i) => t - at[i]!);
};

it('a read failing on the service side reaches failureThreshold within one interval; refused and healthy reads keep the pace', async () => {
  const config = withRecheck(demoConfig(sandbox, { aliases: ['nowak-test', 'nowak-revoked-test'], schedule: SCHEDULE, timeoutMs: 800 }));
  const monitor = createMonitor(config, { logger: silent, load: () => ({ ok: true, config }), random: () => 0.5 });
  const bikes = { target: 'sandbox', endpoint: 'bikes', tenant: 'rowery-nowak', key_alias: 'nowak-test', check: 'read' };
  try {
    await monitor.start();
    // Two ticks: the bikes streak (2, from the first tick and its recheck) and a tick's gap for the others.
    await waitFor(
      async () => seriesValue(await monitor.registry.metrics(), 'repairmon_scheduler_ticks_total', { target: 'sandbox' })! >= 3,
      {
        what: 'three ticks',
        timeoutMs: 15_000,
      },
    );
  } finally {
    await monitor.stop();
  }
  const text = await monitor.registry.metrics();
  expect(seriesValue(text, 'repairmon_probe_consecutive_failures', { ...bikes, class: 'service' })).toBeGreaterThanOrEqual(2);
  // The first failure's recheck came 333 ms later (plus the event loop's delays on a busy
  // machine), not a tick later: a tick's probes keep their place, two seconds apart.
  const failing = gaps(monitor, 'nowak-test', 'bikes');
  expect(failing.length).toBeGreaterThanOrEqual(2);
  expect(failing[0]).toBeGreaterThan(300);
  expect(failing[0]).toBeLessThan(1_700);
  // Once down (2 in a row), it is probed at the schedule's pace again: one recheck per outage,
  // the next tick's probe in its own place a whole interval after the first.
  expect(failing[0]! + failing[1]!).toBeGreaterThan(1_500);
  expect(failing[0]! + failing[1]!).toBeLessThan(2_500);
  for (const gap of failing.slice(2)) expect(gap).toBeGreaterThan(1_500);
  // Both keys' reads of bikes (the fault answers before the key is checked), nothing else.
  expect(seriesValue(text, 'repairmon_scheduler_rechecks_total', { target: 'sandbox' })).toBe(2);
  // A recheck changes the probe's state, not the SLIs' samples: the outcome counters and the
  // duration histogram count the scheduled probes only.
  const bikesReads = monitor
    .plan()
    .filter((p) => p.endpoint === 'bikes' && p.check === 'read')
    .reduce((sum, p) => sum + monitor.history.window(p.id).length, 0);
  const counted = [...text.matchAll(/^repairmon_probes_total\{[^}]*endpoint="bikes"[^}]*check="read"[^}]*\} (\d+)$/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
  expect(counted).toBe(bikesReads - 2);
  expect(seriesValue(text, 'repairmon_probe_duration_seconds_count', { target: 'sandbox', endpoint: 'bikes' })).toBe(bikesReads - 2);
  for (const [alias, endpoint] of [
    ['nowak-revoked-test', 'clients'],
    ['nowak-test', 'clients'],
  ] as const) {
    const paced = gaps(monitor, alias, endpoint);
    expect(paced.length, `${alias} ${endpoint}`).toBeGreaterThanOrEqual(1);
    for (const gap of paced) expect(gap, `${alias} ${endpoint}`).toBeGreaterThan(1_500);
  }
}, 30_000);

it('a recheck answered 429 is not rechecked again: the key is throttled, and a 429 says nothing of the outage', async () => {
  // Five failures to page: without the rule, a 429 would keep the read rechecked all interval.
  const config = withRecheck(demoConfig(sandbox, { aliases: ['nowak-test'], schedule: SCHEDULE, timeoutMs: 800 }), { failureThreshold: 5 });
  sandbox.setFaults('status:503@/tenants/*/bikes');
  const monitor = createMonitor(config, { logger: silent, load: () => ({ ok: true, config }), random: () => 0.5 });
  const bikes = monitor.plan().find((p) => p.endpoint === 'bikes' && p.check === 'read')!;
  try {
    await monitor.start();
    // The 503 is recorded: its recheck (333 ms later) will meet a 429 storm instead.
    await waitFor(() => monitor.history.window(bikes.id).length >= 1, { what: 'the first bikes read', timeoutMs: 10_000, everyMs: 5 });
    sandbox.setFaults('rate-limit-storm@/tenants/*/bikes');
    await waitFor(() => monitor.history.window(bikes.id).length >= 2, { what: 'the recheck', timeoutMs: 5_000, everyMs: 5 });
    // Time for two more rechecks (333 ms each) before the next tick.
    await new Promise((resolve) => setTimeout(resolve, 400));
  } finally {
    await monitor.stop();
    sandbox.setFaults('status:503@/tenants/*/bikes');
  }
  const outcomes = monitor.history.window(bikes.id).map((e) => e.outcome);
  expect(outcomes.slice(0, 2)).toEqual(['server_error', 'rate_limited']);
  expect(seriesValue(await monitor.registry.metrics(), 'repairmon_scheduler_rechecks_total', { target: 'sandbox' })).toBe(1);
}, 30_000);
