/**
 * The monitor's HTTP surface: /metrics, /-/healthy, /-/ready, POST /-/reload, /probes (+ .json),
 * /probe?...&debug=true and the status page at /. `createMonitorServer` returns {url, close}.
 */
import { once } from 'node:events';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { openWindow } from '../maintenance.js';
import type { Monitor } from '../service.js';
import { formatShard } from '../shard.js';
import { debugReport, pickProbe, wouldEmit } from './debug-probe.js';
import { probesJson, renderProbesPage } from './probes-page.js';
import { renderStatusPage } from './status-page.js';

export interface ServerOptions {
  readonly host: string;
  readonly port: number;
  readonly logger: Logger;
  readonly now?: () => number;
}

export interface MonitorServer {
  readonly url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...extra });
  res.end(body);
}

const TEXT = 'text/plain; charset=utf-8';
const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

async function route(monitor: Monitor, req: IncomingMessage, res: ServerResponse, now: () => number): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://monitor.local');
  const method = req.method ?? 'GET';
  const path = url.pathname;
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
      return send(res, 200, HTML, renderProbesPage({ recent: monitor.history.recent(), failures: monitor.history.failures() }));
    case '/probes.json':
      return send(res, 200, JSON_TYPE, probesJson({ recent: monitor.history.recent(), failures: monitor.history.failures() }));
    case '/probe':
      return debugProbe(monitor, url.searchParams, res);
    case '/':
      return send(
        res,
        200,
        HTML,
        renderStatusPage({
          targets: monitor.config().targets,
          plan: monitor.plan(),
          window: (id) => monitor.history.window(id),
          maintenance: (t) => openWindow(t, now()),
          shard: formatShard(monitor.shard),
          now: now(),
        }),
      );
    default:
      return send(res, 404, TEXT, 'not found; try /, /metrics, /probes, /-/healthy\n');
  }
}

async function debugProbe(monitor: Monitor, params: URLSearchParams, res: ServerResponse): Promise<void> {
  const pick = pickProbe(
    { target: params.get('target'), key: params.get('key'), endpoint: params.get('endpoint'), tenant: params.get('tenant'), check: params.get('check') },
    monitor.allProbes(),
  );
  if (!pick.ok) return send(res, pick.status, TEXT, `${pick.message}\n`);
  const result = await monitor.probeNow(pick.spec);
  if (params.get('debug') === 'true') return send(res, 200, JSON_TYPE, `${JSON.stringify(await debugReport(result, monitor.keys()), null, 2)}\n`);
  return send(res, 200, monitor.registry.contentType, await wouldEmit(result));
}

export async function createMonitorServer(monitor: Monitor, options: ServerOptions): Promise<MonitorServer> {
  const now = options.now ?? Date.now;
  const server = createServer((req, res) => {
    route(monitor, req, res, now).catch((error: unknown) => {
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
