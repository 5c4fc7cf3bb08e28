/**
 * An Alertmanager webhook receiver on node:http: every notification is kept with the path it
 * came to (one path per receiver) and the time it arrived, and callers wait for one that
 * carries a given alert in a given state.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

type Labels = Readonly<Record<string, string>>;

/** One alert inside a notification, as Alertmanager's webhook sends it. */
export interface WebhookAlert {
  readonly status: 'firing' | 'resolved';
  readonly labels: Labels;
  readonly annotations: Labels;
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

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

export function labelsMatch(have: Labels, want: Labels): boolean {
  return Object.entries(want).every(([name, value]) => have[name] === value);
}

export async function startWebhookReceiver() {
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
  /** Every alert, in arrival order, of a notification since `sinceMs` whose labels include one of `scopes` (and of `status`, when given). */
  const sightings = (scopes: readonly Labels[], sinceMs = 0, status?: WebhookAlert['status']) =>
    received
      .filter((n) => n.at >= sinceMs)
      .flatMap((notification) =>
        notification.alerts
          .filter((a) => (status === undefined || a.status === status) && scopes.some((s) => labelsMatch(a.labels, s)))
          .map((alert) => ({ notification, alert })),
      );
  return {
    /** http://127.0.0.1:PORT, without a trailing slash. */
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    notifications: (): readonly Notification[] => received,
    sightings,
    /** The first sighting of `labels` in `status` since `sinceMs`, waiting for it up to `timeoutMs`; undefined on timeout. */
    async waitFor(labels: Labels, status: WebhookAlert['status'], sinceMs: number, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = sightings([labels], sinceMs, status)[0];
        if (found || Date.now() > deadline) return found;
        await sleep(100);
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
