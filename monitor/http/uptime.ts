/**
 * Uptime over long windows for the status page, from Prometheus (the monitor keeps only a short
 * window, and nothing across a restart): per window the success average and the earliest run
 * behind it (a 30 d figure from 19 minutes of data says so), and the breaches of the last 24 h,
 * so the banner survives a restart. A Prometheus that does not answer makes the figures
 * "unavailable", never the page: answers are cached, refreshed in the background, bounded in
 * size, and the page waits at most the configured timeout, and only the first time.
 */
import { type Dispatcher, request } from 'undici';
import type { StatusPageSettings } from '../config/types.js';

export const UPTIME_WINDOWS = ['24h', '7d', '30d'] as const;
type UptimeWindow = (typeof UPTIME_WINDOWS)[number];

export interface UptimeSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export type Uptime =
  | { readonly kind: 'off' }
  | { readonly kind: 'unavailable'; readonly reason: string }
  | {
      readonly kind: 'ok';
      readonly windows: Readonly<Record<UptimeWindow, readonly UptimeSample[]>>;
      /** Per window and probe series, the earliest run in it (Unix seconds): how much data is behind each figure. */
      readonly since: Readonly<Record<UptimeWindow, readonly UptimeSample[]>>;
      /** Breached probes over the last 24 h with how many breaches: survives a restart of the monitor. */
      readonly breaches: readonly UptimeSample[];
    };

/** The vector of an instant query's answer, or why it is not one. Pure. */
export function parseVector(body: unknown): { ok: true; samples: UptimeSample[] } | { ok: false; reason: string } {
  const answer = body as { status?: unknown; data?: { resultType?: unknown; result?: unknown } } | null;
  if (answer?.status !== 'success' || answer.data?.resultType !== 'vector' || !Array.isArray(answer.data.result)) {
    return { ok: false, reason: 'Prometheus did not answer with a vector' };
  }
  const samples = (answer.data.result as { metric?: Record<string, string>; value?: [unknown, unknown] }[]).flatMap((r) => {
    const value = Number(r.value?.[1]);
    return Number.isFinite(value) ? [{ labels: r.metric ?? {}, value }] : [];
  });
  return { ok: true, samples };
}

const matching = (samples: readonly UptimeSample[], match: Readonly<Record<string, string>>): number[] =>
  samples.filter((s) => Object.entries(match).every(([k, v]) => (s.labels[k] ?? '') === v)).map((s) => s.value);

/** The mean of the samples whose labels match; undefined when none does. Pure. */
export function uptimeOf(samples: readonly UptimeSample[], match: Readonly<Record<string, string>>): number | undefined {
  const values = matching(samples, match);
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The seconds of data behind the samples that match: from the earliest of them to `nowSeconds`. Pure. */
export function coverageOf(
  since: readonly UptimeSample[],
  match: Readonly<Record<string, string>>,
  nowSeconds: number,
): number | undefined {
  const earliest = matching(since, match).reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
  return Number.isFinite(earliest) ? Math.max(0, nowSeconds - earliest) : undefined;
}

/**
 * The most bytes of one answer read: a vector of ~60 000 probe series fits. A server that
 * streams without end (a fake or broken Prometheus) took the monitor to 2.24 GB in 5 s.
 */
export const PROMETHEUS_ANSWER_LIMIT = 16 * 1024 * 1024;

async function boundedJson(body: Dispatcher.ResponseData['body'], limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw new Error(`answer over ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

async function instantQuery(base: string, query: string, timeoutMs: number): Promise<UptimeSample[]> {
  const url = `${base}/api/v1/query?query=${encodeURIComponent(query)}`;
  const res = await request(url, { signal: AbortSignal.timeout(timeoutMs), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw new Error(`HTTP ${res.statusCode}`);
  }
  const parsed = parseVector(await boundedJson(res.body, PROMETHEUS_ANSWER_LIMIT));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.samples;
}

export async function fetchUptime(settings: StatusPageSettings): Promise<Uptime> {
  const base = settings.prometheusUrl;
  if (base === undefined) return { kind: 'off' };
  try {
    const queries = [
      ...UPTIME_WINDOWS.map((w) => `avg_over_time(repairmon_probe_success{check="read"}[${w}])`),
      ...UPTIME_WINDOWS.map((w) => `min_over_time(repairmon_probe_last_run_timestamp_seconds{check="read"}[${w}])`),
      'sum by (target, endpoint, tenant, key_alias, check) (increase(repairmon_probes_total{outcome="assertion_failed"}[24h])) > 0',
    ];
    const a = await Promise.all(queries.map((q) => instantQuery(base, q, settings.prometheusTimeoutMs)));
    const byWindow = (from: number) => ({ '24h': a[from] ?? [], '7d': a[from + 1] ?? [], '30d': a[from + 2] ?? [] });
    return { kind: 'ok', windows: byWindow(0), since: byWindow(3), breaches: a[6] ?? [] };
  } catch (error) {
    const why =
      error instanceof Error
        ? error.name === 'TimeoutError'
          ? `no answer within ${settings.prometheusTimeoutMs} ms`
          : error.message
        : String(error);
    return { kind: 'unavailable', reason: `Prometheus at ${base} did not answer (${why})` };
  }
}

export type UptimeSource = ReturnType<typeof createUptimeSource>;

export function createUptimeSource(options: { now?: () => number; fetch?: typeof fetchUptime } = {}) {
  const now = options.now ?? Date.now;
  const load = options.fetch ?? fetchUptime;
  let cached: { url: string; at: number; uptime: Uptime } | undefined;
  let pending: Promise<Uptime> | undefined;
  const refresh = (settings: StatusPageSettings, url: string): Promise<Uptime> => {
    pending ??= load(settings)
      .catch((error: unknown): Uptime => ({ kind: 'unavailable', reason: `Prometheus at ${url} did not answer (${String(error)})` }))
      .then((uptime) => {
        cached = { url, at: now(), uptime };
        return uptime;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
  return {
    read(settings: StatusPageSettings): Promise<Uptime> {
      const url = settings.prometheusUrl;
      if (url === undefined) return Promise.resolve({ kind: 'off' });
      if (cached?.url === url) {
        // The long windows barely move in a minute.
        if (now() - cached.at > 60_000) void refresh(settings, url);
        return Promise.resolve(cached.uptime);
      }
      return refresh(settings, url);
    },
  };
}
