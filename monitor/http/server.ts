/**
 * The monitor's HTTP surface: /metrics, /-/healthy, /-/ready, POST /-/reload, /probes (+ .json),
 * /probe?...&debug=true and the status page at /. `createMonitorServer` returns {url, close}.
 * Every request is authorized first (auth.ts) against the running config's tokens, so a reload
 * that rotates a token file takes effect at once.
 */
import { once } from 'node:events';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import { httpSettings, statusPageSettings } from '../config/types.js';
import { openWindow } from '../config/cron.js';
import type { Monitor } from '../service.js';
import { formatShard } from '../shard.js';
import { CHALLENGES, authorize, browserGuard, unprotectedListen } from './auth.js';
import { type ProbeIndex, debugReport, indexProbes, pickProbe, retryAfterSeconds, wouldEmit } from './debug-probe.js';
import { probesJson, renderProbesPage } from './html.js';
import type { ProbeSpec } from '../probe/spec.js';
import { type StatusLayout, statusLayout, statusPageParts } from './status-page.js';
import { type UptimeSource, createUptimeSource } from './uptime.js';

interface ServerOptions {
  readonly host: string;
  readonly port: number;
  readonly logger: Logger;
  readonly now?: () => number;
  /** Where long-window uptime comes from; by default Prometheus per `statusPage` in the config. */
  readonly uptime?: UptimeSource;
}

export interface MonitorServer {
  readonly url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...extra });
  res.end(body);
}

const TEXT = 'text/plain; charset=utf-8';
const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** `?refresh=N` on the status page: 5 to 300 s, only when the viewer asks. */
function refreshSeconds(params: URLSearchParams): number | undefined {
  const n = Number(params.get('refresh'));
  return Number.isInteger(n) && n >= 5 && n <= 300 ? n : undefined;
}

/**
 * Sends a page made of pieces as it is made. Between chunks the event loop is let go (or, when
 * the reader is slow, waited on: the page is not buffered whole), so a big page never keeps
 * /-/healthy, /metrics or another request waiting; a reader that goes away stops the making.
 */
/** Bytes gathered before a write: a few rows of the status page. */
const CHUNK_CHARS = 16 * 1024;

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function streamBody(res: ServerResponse, status: number, headers: Record<string, string>, parts: Iterable<string>): Promise<void> {
  res.writeHead(status, headers);
  let pending = '';
  for (const part of parts) {
    pending += part;
    if (pending.length < CHUNK_CHARS) continue;
    const flushed = res.write(pending);
    pending = '';
    if (res.destroyed) return;
    if (!flushed) await drained(res);
    // Always a real turn of the event loop: a loopback socket often drains at once, within
    // the same turn, which would let no other request in.
    await nextTurn();
    if (res.destroyed) return;
  }
  res.end(pending);
}

interface Context {
  readonly monitor: Monitor;
  readonly listenHost: string;
  readonly now: () => number;
  readonly uptime: UptimeSource;
  /** What depends on the plan only, built once per plan (a reload makes a new one), not per request. */
  readonly layouts: WeakMap<readonly ProbeSpec[], StatusLayout>;
  readonly indexes: WeakMap<readonly ProbeSpec[], ProbeIndex>;
}

function perPlan<K extends object, V>(memo: WeakMap<K, V>, key: K, make: (key: K) => V): V {
  let value = memo.get(key);
  if (value === undefined) memo.set(key, (value = make(key)));
  return value;
}

async function route(ctx: Context, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { monitor, now } = ctx;
  const url = new URL(req.url ?? '/', 'http://monitor.local');
  const method = req.method ?? 'GET';
  const path = url.pathname;
  const refused = browserGuard(method, path, req.headers, ctx.listenHost);
  if (refused) return send(res, 403, TEXT, `${refused}\n`);
  const access = authorize(path, req.headers.authorization, httpSettings(monitor.config()));
  if (!access.ok)
    return send(res, access.status, TEXT, `${access.message}\n`, access.status === 401 ? { 'www-authenticate': CHALLENGES } : {});
  if (path === '/-/reload') {
    if (method !== 'POST' && method !== 'PUT') return send(res, 405, TEXT, 'use POST /-/reload\n', { allow: 'POST, PUT' });
    const result = await monitor.reload();
    return send(res, result.ok ? 200 : 400, JSON_TYPE, `${JSON.stringify(result)}\n`);
  }
  if (method !== 'GET' && method !== 'HEAD') return send(res, 405, TEXT, 'method not allowed\n', { allow: 'GET, HEAD' });
  switch (path) {
    case '/metrics':
      return send(res, 200, monitor.registry.contentType, await monitor.registry.metrics());
    case '/-/healthy':
      return send(res, 200, TEXT, 'Healthy\n');
    case '/-/ready':
      return monitor.ready() ? send(res, 200, TEXT, 'Ready\n') : send(res, 503, TEXT, 'Not ready\n');
    case '/probes':
    case '/probes.json': {
      const view = { recent: monitor.history.recent(), failures: monitor.history.failures() };
      return path === '/probes' ? send(res, 200, HTML, renderProbesPage(view)) : send(res, 200, JSON_TYPE, probesJson(view));
    }
    case '/probe':
      return debugProbe(ctx, url.searchParams, res);
    case '/': {
      const plan = monitor.plan();
      const targets = monitor.config().targets;
      const uptime = await ctx.uptime.read(statusPageSettings(monitor.config()));
      return streamBody(
        res,
        200,
        { 'content-type': HTML, 'cache-control': 'no-store' },
        statusPageParts({
          targets,
          plan,
          layout: perPlan(ctx.layouts, plan, () => statusLayout(targets, plan)),
          window: (id) => monitor.history.window(id),
          maintenance: (t) => openWindow(t, now()),
          shard: formatShard(monitor.shard),
          now: now(),
          breaches: monitor.history.breaches(),
          uptime,
          refreshSeconds: refreshSeconds(url.searchParams),
        }),
      );
    }
    default:
      return send(res, 404, TEXT, 'not found; try /, /metrics, /probes, /-/healthy\n');
  }
}

async function debugProbe(ctx: Context, params: URLSearchParams, res: ServerResponse): Promise<void> {
  const { monitor } = ctx;
  const pick = pickProbe(
    {
      target: params.get('target'),
      key: params.get('key'),
      endpoint: params.get('endpoint'),
      tenant: params.get('tenant'),
      check: params.get('check'),
    },
    perPlan(ctx.indexes, monitor.allProbes(), indexProbes),
  );
  if (!pick.ok) return send(res, pick.status, TEXT, `${pick.message}\n`);
  const ran = await monitor.probeOnDemand(pick.spec);
  if (ran.kind === 'refused') {
    const seconds = retryAfterSeconds(ran.gate.retryAfterMs);
    const who = `key ${pick.spec.keyAlias} on target ${pick.spec.target}`;
    const why =
      ran.gate.reason === 'retry_after'
        ? `${who} is waiting out the API's Retry-After; the scheduled probes wait too`
        : `${who} was probed on demand less than ${Math.round(httpSettings(monitor.config()).onDemandIntervalMs / 1000)} s ago (http.onDemandInterval): each probe spends the key's quota`;
    return send(res, 429, TEXT, `${why}; try again in ${seconds} s\n`, { 'retry-after': String(seconds) });
  }
  if (params.get('debug') === 'true')
    return send(res, 200, JSON_TYPE, `${JSON.stringify(await debugReport(ran.result, monitor.keys()), null, 2)}\n`);
  return send(res, 200, monitor.registry.contentType, await wouldEmit(ran.result));
}

export async function createMonitorServer(monitor: Monitor, options: ServerOptions): Promise<MonitorServer> {
  // The callers check first and say so nicely (startServing); this is the floor no caller can skip.
  const unprotected = unprotectedListen(options.host, options.port, httpSettings(monitor.config()));
  if (unprotected) throw new Error(unprotected);
  const ctx: Context = {
    monitor,
    listenHost: options.host,
    now: options.now ?? Date.now,
    uptime: options.uptime ?? createUptimeSource(),
    layouts: new WeakMap(),
    indexes: new WeakMap(),
  };
  const server = createServer((req, res) => {
    route(ctx, req, res).catch((error: unknown) => {
      options.logger.error({ err: error instanceof Error ? error.message : String(error), path: req.url?.split('?')[0] }, 'request failed');
      if (!res.headersSent) send(res, 500, TEXT, 'internal error\n');
      else res.end();
    });
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
