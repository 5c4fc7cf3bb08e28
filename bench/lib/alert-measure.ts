/**
 * One fault's run through the alert stack: inject, wait for its alert at the webhook, hold the
 * fault a few intervals (a resolution while it is on is a flap), clear, wait for the
 * resolution; and every other alert the fault's target raised meanwhile.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ExpectedAlert, FaultScenario, StackHandles } from './alert-faults.js';
import type { WebhookReceiver } from './webhook-receiver.js';

export interface OtherAlert {
  readonly alertname: string;
  readonly severity: string;
  readonly receiver: string;
  /** Seconds from the injection to its first firing notification. */
  readonly fireSeconds: number;
  /** Seconds from the clearing to its resolved notification; undefined when not (yet) resolved. */
  readonly resolveSeconds: number | undefined;
}

export interface FaultMeasurement {
  readonly fault: string;
  /** Wall-clock ms the fault was injected and cleared. */
  readonly injectedAt: number;
  readonly clearedAt: number;
  readonly what: string;
  readonly expect: ExpectedAlert;
  /** The labels and receiver of the firing notification, when it came. */
  readonly fired: { readonly labels: Readonly<Record<string, string>>; readonly receiver: string } | undefined;
  readonly fireSeconds: number | undefined;
  readonly resolveSeconds: number | undefined;
  /** The receiver of the resolved notification. */
  readonly resolvedReceiver: string | undefined;
  /** A resolved notification for the alert arrived while the fault was still on. */
  readonly flapped: boolean;
  /** Every other alert of the fault's target (or job) that fired meanwhile, resolutions seen by the end of the run. */
  readonly others: readonly OtherAlert[];
}

export interface AlertStackResult {
  readonly startedAt: string;
  readonly scheduleSeconds: number;
  /** Default schedule / this schedule: every rule and routing duration was divided by it. */
  readonly factor: number;
  readonly prometheusIntervalSeconds: number;
  readonly faults: readonly FaultMeasurement[];
  /** Alerts that must not have fired: on the healthy target, an outage page for a misspelt tenant, anything before the faults. */
  readonly unexpected: ReadonlyArray<{ readonly receiver: string; readonly labels: Readonly<Record<string, string>>; readonly at: number }>;
  readonly wallSeconds: number;
}

export interface MeasureOptions {
  readonly scheduleSeconds: number;
  readonly log: (line: string) => void;
}

const FIRE_WITHIN_MS = 90_000;

/** Called once every fault is done, so slower siblings have had time to resolve too. */
export function otherAlerts(fault: FaultScenario, webhook: WebhookReceiver, injectedAt: number, clearedAt: number): OtherAlert[] {
  const seen = new Map<string, OtherAlert>();
  for (const s of webhook.sightings(fault.scope, 'firing', injectedAt)) {
    const { alertname = '', severity = '' } = s.alert.labels;
    const key = `${alertname}/${severity}`;
    if (seen.has(key) || (alertname === fault.expect.alertname && severity === fault.expect.severity)) continue;
    const resolved = webhook.sightings({ ...fault.scope, alertname, severity }, 'resolved', Math.max(clearedAt, s.notification.at))[0];
    const resolveSeconds = resolved ? (resolved.notification.at - clearedAt) / 1000 : undefined;
    seen.set(key, { alertname, severity, receiver: s.notification.receiver, fireSeconds: (s.notification.at - injectedAt) / 1000, resolveSeconds });
  }
  return [...seen.values()];
}

export async function measureFault(fault: FaultScenario, stack: StackHandles, webhook: WebhookReceiver, options: MeasureOptions): Promise<FaultMeasurement> {
  const wanted = { ...fault.expect.labels, alertname: fault.expect.alertname, severity: fault.expect.severity };
  const injectedAt = Date.now();
  await fault.inject(stack);
  const fired = await webhook.waitFor(wanted, 'firing', injectedAt, FIRE_WITHIN_MS);
  options.log(`${fault.name}: ${fired ? `fired after ${((fired.notification.at - injectedAt) / 1000).toFixed(1)} s` : 'did not fire'}`);
  if (fired) await sleep(Math.max(3_000, 3_000 * options.scheduleSeconds));
  const clearedAt = Date.now();
  await fault.clear(stack);
  const flapped = fired !== undefined && webhook.sightings(wanted, 'resolved', fired.notification.at).some((s) => s.notification.at < clearedAt);
  // The resolution of the very alert that fired (its full label set), not of a sibling.
  const resolved = fired ? await webhook.waitFor(fired.alert.labels, 'resolved', clearedAt, fault.resolveWithinSeconds * 1000) : undefined;
  options.log(`${fault.name}: ${resolved ? `resolved after ${((resolved.notification.at - clearedAt) / 1000).toFixed(1)} s` : 'did not resolve'}`);
  return {
    fault: fault.name,
    injectedAt,
    clearedAt,
    what: fault.what,
    expect: fault.expect,
    fired: fired ? { labels: fired.alert.labels, receiver: fired.notification.receiver } : undefined,
    fireSeconds: fired ? (fired.notification.at - injectedAt) / 1000 : undefined,
    resolveSeconds: resolved ? (resolved.notification.at - clearedAt) / 1000 : undefined,
    resolvedReceiver: resolved?.notification.receiver,
    flapped,
    others: [],
  };
}

