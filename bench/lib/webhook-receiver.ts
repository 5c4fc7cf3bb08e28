/**
 * An Alertmanager webhook receiver on node:http: every notification is kept with the path it
 * came to (one path per receiver) and the time it arrived, and callers wait for one that
 * carries a given alert in a given state.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** One alert inside a notification, as Alertmanager's webhook sends it. */
export interface WebhookAlert {
  readonly status: 'firing' | 'resolved';
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly startsAt: string;
  readonly endsAt: string;
}

export interface Notification {
  /** The receiver, from the path the webhook was configured with (`/ops-pager`). */
  readonly receiver: string;
  /** Wall-clock ms when it arrived. */
  readonly at: number;
  /** Alertmanager's key of the notification group: a pager opens one incident per key. */
  readonly groupKey: string;
  readonly alerts: readonly WebhookAlert[];
}

export interface Sighting {
  readonly notification: Notification;
  readonly alert: WebhookAlert;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:PORT, without a trailing slash. */
  readonly url: string;
  notifications(): readonly Notification[];
  /** Every alert in a notification since `sinceMs` whose labels include `labels` and whose status is `status`. */
  sightings(labels: Readonly<Record<string, string>>, status: WebhookAlert['status'], sinceMs?: number): Sighting[];
  /** The first such sighting, waiting for it up to `timeoutMs`; undefined on timeout. */
  waitFor(
    labels: Readonly<Record<string, string>>,
    status: WebhookAlert['status'],
    sinceMs: number,
    timeoutMs: number,
  ): Promise<Sighting | undefined>;
  close(): Promise<void>;
}

export function labelsMatch(have: Readonly<Record<string, string>>, want: Readonly<Record<string, string>>): boolean {
  return Object.entries(want).every(([name, value]) => have[name] === value);
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Notification[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { groupKey?: string; alerts?: WebhookAlert[] };
        received.push({ receiver: (req.url ?? '/').slice(1), at, groupKey: body.groupKey ?? '', alerts: body.alerts ?? [] });
        res.writeHead(200).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const sightings = (labels: Readonly<Record<string, string>>, status: WebhookAlert['status'], sinceMs = 0): Sighting[] =>
    received
      .filter((n) => n.at >= sinceMs)
      .flatMap((notification) =>
        notification.alerts.filter((a) => a.status === status && labelsMatch(a.labels, labels)).map((alert) => ({ notification, alert })),
      );
  return {
    url: `http://127.0.0.1:${port}`,
    notifications: () => received,
    sightings,
    async waitFor(labels, status, sinceMs, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = sightings(labels, status, sinceMs)[0];
        if (found || Date.now() > deadline) return found;
        await sleep(100);
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
