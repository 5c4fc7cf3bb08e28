/**
 * Recent probe results, bounded: a ring of the latest results, a second ring that keeps
 * failures after the first has rolled them off, a third that keeps breaches (so a flood of
 * ordinary failures cannot push a tenant-isolation breach off the status page), and a short
 * window per probe for ratios and sparklines. Entries are plain data without keys or bodies.
 */
import type { EndpointId } from '../api/contract/index.js';
import type { ProbeVerdict } from './probe/outcome.js';
import type { ProbeResult } from './probe/run.js';
import type { ProbeCheck } from './probe/spec.js';

/** A probe's verdict with the probe it belongs to and when it ran. */
export interface HistoryEntry extends ProbeVerdict {
  readonly id: string;
  readonly target: string;
  readonly endpoint: string;
  readonly tenant: string;
  readonly keyAlias: string;
  readonly check: ProbeCheck;
  /** Wall-clock ms. */
  readonly at: number;
  readonly durationMs: number;
  readonly sent: boolean;
  readonly degraded: string;
  /** The answer was an HTML page (a proxy's error page, a login wall), not the API's JSON. */
  readonly html: boolean;
  /** The W3C trace id the request went with and the server's request id: what support hands the API team. */
  readonly traceId?: string | undefined;
  readonly requestId?: string | undefined;
}

export type History = ReturnType<typeof createHistory>;

/**
 * Which response bodies the monitor may show anywhere (debug view, history, pages). A tenant
 * resource or /platform/ answer was read with a real key and holds customers' names, phones
 * and e-mails; only `/` and `/docs` hold no tenant's data.
 */
export function bodyShown(endpoint: EndpointId): boolean {
  return endpoint === 'index' || endpoint === 'docs';
}

/** A verdict's detail quotes the start of a body that is not JSON; that quote goes where the body goes. */
export function withheldDetail(endpoint: EndpointId, detail: string): string {
  return bodyShown(endpoint) || !detail.includes('; starts with') ? detail : detail.replace(/; starts with .*$/s, '; body not shown');
}

/** At most `size` items, oldest first: pushing past the size drops the oldest. */
class Ring<T> {
  items: T[] = [];
  constructor(readonly size: number) {}
  push(item: T): void {
    if (this.items.push(item) > this.size) this.items.shift();
  }
  newestFirst = (): T[] => [...this.items].reverse();
}

/** By the content type, or by the body itself when a proxy sends HTML without saying so. */
function answeredHtml(result: ProbeResult): boolean {
  const attempt = result.attempt;
  if (attempt?.kind !== 'response') return false;
  if (/\btext\/html\b/i.test(attempt.headers['content-type'] ?? '')) return true;
  return /^\s*<(!doctype html|html|head|body)\b/i.test(attempt.bodyExcerpt);
}

/** Field by field rather than a spread of the verdict: this runs once per probe. */
function toEntry(result: ProbeResult): HistoryEntry {
  const { spec, verdict } = result;
  return {
    outcome: verdict.outcome,
    reason: verdict.reason,
    detail: withheldDetail(spec.endpoint, verdict.detail),
    expected: verdict.expected,
    success: verdict.success,
    status: verdict.status,
    items: verdict.items,
    id: spec.id,
    target: spec.target,
    endpoint: spec.endpoint,
    tenant: spec.tenant,
    keyAlias: spec.keyAlias,
    check: spec.check,
    at: result.startedAt,
    durationMs: Math.round(result.durationMs * 10) / 10,
    sent: result.sent,
    degraded: result.degraded,
    html: answeredHtml(result),
    traceId: result.attempt?.traceId,
    requestId: result.attempt?.kind === 'response' ? result.attempt.requestId : undefined,
  };
}

export function createHistory(options: { perProbe: number }) {
  const recent = new Ring<HistoryEntry>(200);
  const failures = new Ring<HistoryEntry>(100);
  const breaches = new Ring<HistoryEntry>(50);
  const windows = new Map<string, Ring<HistoryEntry>>();
  return {
    add(result: ProbeResult): HistoryEntry {
      const entry = toEntry(result);
      recent.push(entry);
      if (!entry.success) failures.push(entry);
      if (entry.outcome === 'assertion_failed') breaches.push(entry);
      let ring = windows.get(entry.id);
      if (!ring) windows.set(entry.id, (ring = new Ring(options.perProbe)));
      ring.push(entry);
      return entry;
    },
    /** Newest first. */
    recent: (): HistoryEntry[] => recent.newestFirst(),
    failures: (): HistoryEntry[] => failures.newestFirst(),
    /** Refusal canaries that got data back (`assertion_failed`), newest first. */
    breaches: (): HistoryEntry[] => breaches.newestFirst(),
    /** Oldest first, at most `perProbe` entries. */
    window: (id: string): readonly HistoryEntry[] => windows.get(id)?.items ?? [],
    /** Forgets probes no longer planned. */
    retain(ids: ReadonlySet<string>): void {
      for (const id of windows.keys()) if (!ids.has(id)) windows.delete(id);
      for (const ring of [recent, failures, breaches]) ring.items = ring.items.filter((e) => ids.has(e.id));
    },
  };
}
