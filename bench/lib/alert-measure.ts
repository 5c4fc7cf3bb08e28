/**
 * One fault's run through the alert stack (inject, wait for its alert, hold, clear, wait until
 * its scope resolved), then what the pager and the ticket queues got meanwhile.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ExpectedAlert, FaultScenario, StackHandles } from './alert-faults.js';
import type { WebhookAlert, WebhookReceiver } from './webhook-receiver.js';

export interface OtherAlert {
  readonly alertname: string;
  readonly severity: string;
  readonly receiver: string;
  /** Seconds from the injection to its first firing notification. */
  readonly fireSeconds: number;
  /** Seconds from the clearing to its resolved notification; undefined when not (yet) resolved. */
  readonly resolveSeconds: number | undefined;
}

export interface FalseNotification {
  readonly alertname: string;
  readonly severity: string;
  readonly status: WebhookAlert['status'];
  readonly receiver: string;
  readonly why: 'not explained by the fault' | 'resolved while the fault was on';
}

export interface FaultMeasurement {
  readonly fault: string;
  /** Wall-clock ms the fault was injected and cleared. */
  readonly injectedAt: number;
  readonly clearedAt: number;
  readonly what: string;
  readonly expect: ExpectedAlert;
  /** The labels, annotations and receiver of the firing notification, when it came. */
  readonly fired:
    | {
        readonly labels: Readonly<Record<string, string>>;
        readonly annotations?: Readonly<Record<string, string>>;
        readonly receiver: string;
      }
    | undefined;
  readonly fireSeconds: number | undefined;
  readonly resolveSeconds: number | undefined;
  /** The receiver of the resolved notification. */
  readonly resolvedReceiver: string | undefined;
  /** A resolved notification for the alert arrived while the fault was still on. */
  readonly flapped: boolean;
  /** Every other alert of the fault's scope that fired meanwhile, resolutions seen by the end of the run. */
  readonly others: readonly OtherAlert[];
  /** Notifications carrying an alert of the scope, from the injection to the end of the run. */
  readonly notifications?: number;
  /** Distinct notification groups at a pager: the incidents someone is woken for. */
  readonly pageGroups?: number;
  /** Seconds from the injection to the first page of the scope. */
  readonly pageSeconds?: number | undefined;
  /** Seconds from the clearing until every alert of the scope had resolved; undefined when one had not. */
  readonly allResolvedSeconds?: number | undefined;
  readonly falseNotifications?: readonly FalseNotification[];
}

export interface AlertStackResult {
  readonly startedAt: string;
  readonly scheduleSeconds: number;
  /** Default schedule / this schedule: every rule and routing duration was divided by it. */
  readonly factor: number;
  readonly prometheusIntervalSeconds: number;
  /** Every `for` and `keep_firing_for` was cut to this many minutes (at the default schedule). */
  readonly holdCapMinutes?: number;
  readonly faults: readonly FaultMeasurement[];
  /** Seconds from each extra whole outage to its first page (undefined: none within 90 s); the whole-outage fault is one more sample. */
  readonly outageSamplePages?: ReadonlyArray<number | undefined>;
  /** Alerts that must not have fired: on the healthy target, an outage page for a misspelt tenant, anything before the faults. */
  readonly unexpected: ReadonlyArray<{ readonly receiver: string; readonly labels: Readonly<Record<string, string>>; readonly at: number }>;
  /** Share of the healthy target's logs reads that count as good (its narrow key's refusals are expected). */
  readonly healthyLogsReadRatio?: number | undefined;
  readonly wallSeconds: number;
}

const FIRE_WITHIN_MS = 90_000;
const isPager = (receiver: string): boolean => receiver.endsWith('-pager');
const fingerprint = (labels: Readonly<Record<string, string>>): string =>
  JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));

type ScopedAlert = ReturnType<WebhookReceiver['sightings']>[number];

/** The time every alert of the scope had resolved (its latest status), or undefined while one still fires. */
function allResolvedAt(alerts: readonly ScopedAlert[]): number | undefined {
  const latest = new Map<string, ScopedAlert>();
  for (const a of alerts) latest.set(fingerprint(a.alert.labels), a);
  const states = [...latest.values()];
  if (states.some((a) => a.alert.status === 'firing')) return undefined;
  return Math.max(0, ...states.map((a) => a.notification.at));
}

function explained(fault: FaultScenario, labels: Readonly<Record<string, string>>): boolean {
  const { alertname = '', severity = '' } = labels;
  if (alertname === fault.expect.alertname && severity === fault.expect.severity) return true;
  return (fault.companions ?? []).some((c) => c === alertname || c === `${alertname}/${severity}`);
}

function falseNotifications(fault: FaultScenario, alerts: readonly ScopedAlert[], { injectedAt, clearedAt }: FaultMeasurement) {
  const seen = new Map<string, FalseNotification>();
  for (const { notification, alert } of alerts) {
    const why =
      alert.status === 'firing' && !explained(fault, alert.labels)
        ? 'not explained by the fault'
        : alert.status === 'resolved' && notification.at >= injectedAt && notification.at < clearedAt
          ? 'resolved while the fault was on'
          : undefined;
    if (why === undefined) continue;
    seen.set(`${fingerprint(alert.labels)}/${alert.status}`, {
      alertname: alert.labels['alertname'] ?? '',
      severity: alert.labels['severity'] ?? '',
      status: alert.status,
      receiver: notification.receiver,
      why,
    });
  }
  return [...seen.values()];
}

/** Called once every fault is done, so slower siblings have had time to resolve too. */
function otherAlerts(fault: FaultScenario, webhook: WebhookReceiver, { injectedAt, clearedAt }: FaultMeasurement): OtherAlert[] {
  const seen = new Map<string, OtherAlert>();
  const alerts = webhook.sightings(fault.scope, injectedAt);
  for (const s of alerts.filter((a) => a.alert.status === 'firing')) {
    const { alertname = '', severity = '' } = s.alert.labels;
    const key = `${alertname}/${severity}`;
    if (seen.has(key) || (alertname === fault.expect.alertname && severity === fault.expect.severity)) continue;
    const resolved = alerts.find(
      (a) =>
        a.alert.status === 'resolved' &&
        a.alert.labels['alertname'] === alertname &&
        a.alert.labels['severity'] === severity &&
        a.notification.at >= Math.max(clearedAt, s.notification.at),
    );
    const resolveSeconds = resolved ? (resolved.notification.at - clearedAt) / 1000 : undefined;
    seen.set(key, {
      alertname,
      severity,
      receiver: s.notification.receiver,
      fireSeconds: (s.notification.at - injectedAt) / 1000,
      resolveSeconds,
    });
  }
  return [...seen.values()];
}

/** What the pager and the queues got for this fault, counted once every fault is done. */
export function tally(fault: FaultScenario, webhook: WebhookReceiver, m: FaultMeasurement, since: number): FaultMeasurement {
  const alerts = webhook.sightings(fault.scope, since);
  const after = alerts.filter((a) => a.notification.at >= m.injectedAt);
  const notifications = new Set(after.map((a) => a.notification));
  const pages = [...notifications].filter((n) => isPager(n.receiver));
  const firstPage = pages.find((n) => n.alerts.some((a) => a.status === 'firing'));
  const resolvedAt = allResolvedAt(alerts);
  return {
    ...m,
    others: otherAlerts(fault, webhook, m),
    notifications: notifications.size,
    pageGroups: new Set(pages.map((n) => n.groupKey)).size,
    pageSeconds: firstPage ? (firstPage.at - m.injectedAt) / 1000 : undefined,
    allResolvedSeconds: resolvedAt === undefined ? undefined : Math.max(0, resolvedAt - m.clearedAt) / 1000,
    falseNotifications: falseNotifications(fault, after, m),
  };
}

export async function measureFault(
  fault: FaultScenario,
  stack: StackHandles,
  webhook: WebhookReceiver,
  options: { readonly scheduleSeconds: number; readonly log: (line: string) => void },
): Promise<{ measurement: FaultMeasurement; since: number }> {
  const wanted = { ...fault.expect.labels, alertname: fault.expect.alertname, severity: fault.expect.severity };
  const since = Date.now();
  await fault.prepare?.(stack);
  const injectedAt = Date.now();
  await fault.inject(stack);
  const fired = await webhook.waitFor(wanted, 'firing', injectedAt, FIRE_WITHIN_MS);
  options.log(`${fault.name}: ${fired ? `fired after ${((fired.notification.at - injectedAt) / 1000).toFixed(1)} s` : 'did not fire'}`);
  if (fired) await sleep(Math.max(3, fault.holdSeconds ?? 3) * 1000 * options.scheduleSeconds);
  const clearedAt = Date.now();
  await fault.clear(stack);
  const flapped =
    fired !== undefined && webhook.sightings([wanted], fired.notification.at, 'resolved').some((s) => s.notification.at < clearedAt);
  // The resolution of the very alert that fired (its full label set), not of a sibling; then of every alert of the scope.
  const resolved = fired ? await webhook.waitFor(fired.alert.labels, 'resolved', clearedAt, fault.resolveWithinSeconds * 1000) : undefined;
  const deadline = clearedAt + fault.resolveWithinSeconds * 1000;
  while (allResolvedAt(webhook.sightings(fault.scope, since)) === undefined && Date.now() < deadline) await sleep(200);
  options.log(
    `${fault.name}: ${resolved ? `resolved after ${((resolved.notification.at - clearedAt) / 1000).toFixed(1)} s` : 'did not resolve'}`,
  );
  const measurement: FaultMeasurement = {
    fault: fault.name,
    injectedAt,
    clearedAt,
    what: fault.what,
    expect: fault.expect,
    fired: fired ? { labels: fired.alert.labels, annotations: fired.alert.annotations, receiver: fired.notification.receiver } : undefined,
    fireSeconds: fired ? (fired.notification.at - injectedAt) / 1000 : undefined,
    resolveSeconds: resolved ? (resolved.notification.at - clearedAt) / 1000 : undefined,
    resolvedReceiver: resolved?.notification.receiver,
    flapped,
    others: [],
  };
  return { measurement, since };
}
