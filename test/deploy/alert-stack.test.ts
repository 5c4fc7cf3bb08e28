/**
 * The alerts end to end: a real Prometheus with the shipped rules and a real Alertmanager with
 * the shipped routing, in front of the monitor probing one sandbox per fault on a 1 s schedule
 * (every rule and routing duration divided by 30, as for the default 30 s schedule). Each fault
 * must raise its alert, with the labels that say which target, tenant and key, at the receiver
 * the routing names; must not resolve while the fault is on; and must resolve once it is
 * cleared. Nothing may fire for the healthy target or page for a misspelt tenant. Times are
 * measured, printed and written to bench/results/alert-latency.json, never asserted.
 */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AlertStackResult } from '../../bench/lib/alert-measure.js';
import { renderAlertTable, writeAlertResult } from '../../bench/lib/alert-report.js';
import { runAlertStack } from '../../bench/lib/alert-stack.js';
import { ALERTMANAGER_BINARY } from '../../bench/lib/alertmanager-server.js';
import { FAULTS } from '../../bench/lib/alert-faults.js';
import { PROMETHEUS_BINARY } from '../../bench/lib/prometheus-server.js';
import { toolAvailable } from '../helpers/tools.js';

const hasTools =
  toolAvailable(existsSync(PROMETHEUS_BINARY), 'the real-stack alert test', `${PROMETHEUS_BINARY} (Debian: apt-get install prometheus)`) &&
  toolAvailable(existsSync(ALERTMANAGER_BINARY), 'the real-stack alert test', `${ALERTMANAGER_BINARY} (Debian: apt-get install prometheus-alertmanager)`);

describe.skipIf(!hasTools)('alerts through a real Prometheus and Alertmanager', () => {
  let result: AlertStackResult;

  beforeAll(async () => {
    result = await runAlertStack({ scheduleSeconds: 1 });
    const file = await writeAlertResult(result);
    console.log(`${renderAlertTable(result)}\nwritten: ${file}`);
  }, 300_000);

  it.each(FAULTS.map((f) => [f.name, f] as const))('%s: its alert fires with the right labels at the right receiver', (name, fault) => {
    const m = result.faults.find((f) => f.fault === name)!;
    expect(m.fired, `${name} did not fire`).toBeDefined();
    expect(m.fired?.labels).toMatchObject({ ...fault.expect.labels, alertname: fault.expect.alertname, severity: fault.expect.severity });
    expect(m.fired?.receiver).toBe(fault.expect.receiver);
  });

  it.each(FAULTS.map((f) => [f.name] as const))('%s: it stays up while the fault is on and resolves once it is cleared', (name) => {
    const m = result.faults.find((f) => f.fault === name)!;
    expect(m.flapped).toBe(false);
    expect(m.resolveSeconds, `${name} did not resolve`).toBeDefined();
    expect(m.resolvedReceiver).toBe(m.fired?.receiver);
  });

  it('nothing fires for the healthy target (a narrow-scope key with its expect included), nothing before the faults, and a misspelt tenant never pages', () => {
    expect(result.unexpected).toEqual([]);
    const typo = result.faults.find((f) => f.fault === 'misspelt-tenant')!;
    expect(typo.others.filter((o) => o.severity === 'page')).toEqual([]);
  });
});
