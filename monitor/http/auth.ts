/**
 * Who may read what on the monitor's HTTP surface. The views that run probes or show their
 * results (/, /probes, /probe, /-/reload) need `http.token`; /metrics and the health endpoints
 * are open unless `http.metricsToken` is set. A token is presented as `Authorization: Bearer`
 * (scripts, Prometheus) or as the password of HTTP Basic (a browser's login prompt; any user
 * name), never in a URL. Pure, apart from hashing: tokens are compared in constant time.
 *
 * A token is not the only guard against a web page the operator happens to open: `browserGuard`
 * refuses DNS rebinding (a loopback listener serves only loopback Host names) and cross-site
 * requests that act (a reload, a probe that spends quota), whatever credential a browser attaches.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { ApiKey } from '../../api/client/index.js';
import type { HttpSettings } from '../config/types.js';

/** Paths that Prometheus and kubelets read: open by default, or behind the metrics token. */
export const SCRAPE_PATHS: ReadonlySet<string> = new Set(['/metrics', '/-/healthy', '/-/ready']);

export const AUTH_REALM = 'repairmon';

export type Access =
  | { readonly ok: true }
  | { readonly ok: false; readonly status: 401 | 403; readonly message: string };

/** 127.0.0.0/8, ::1 and `localhost`: only this machine can connect. Anything else is reachable from outside. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(bare);
}

/** Why a listen address cannot be served with these settings, or undefined when it can. */
export function unprotectedListen(host: string, port: number, http: HttpSettings): string | undefined {
  if (isLoopback(host) || http.token !== undefined) return undefined;
  return (
    `--listen ${host}:${port} is reachable from other machines, and the monitor's views run probes with real keys: ` +
    'set `http: { token: ${REPAIRMON_HTTP_TOKEN} }` (or `tokenFile: path`) in the config and export the variable ' +
    '(make one with `openssl rand -hex 32`), or listen on 127.0.0.1'
  );
}

/** The credential a request presents: a Bearer token, or the password of HTTP Basic. */
export function presentedToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const [scheme = '', value = ''] = authorization.trim().split(/\s+/, 2);
  if (/^bearer$/i.test(scheme)) return value || undefined;
  if (!/^basic$/i.test(scheme)) return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) || undefined : undefined;
}

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
export function tokenMatches(presented: string | undefined, token: ApiKey | undefined): boolean {
  if (presented === undefined || token === undefined) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(token.reveal()).digest();
  return timingSafeEqual(a, b);
}

const MISSING = 'this view needs the monitor\'s HTTP token: send "Authorization: Bearer <token>" (the value of http.token in the config)';

export function authorize(path: string, authorization: string | undefined, http: HttpSettings): Access {
  const presented = presentedToken(authorization);
  if (SCRAPE_PATHS.has(path)) {
    if (http.metricsToken === undefined) return { ok: true };
    // The main token opens everything the metrics token opens.
    if (tokenMatches(presented, http.metricsToken) || tokenMatches(presented, http.token)) return { ok: true };
    return { ok: false, status: 401, message: `${path} needs a token: send "Authorization: Bearer <token>" (http.metricsToken or http.token)` };
  }
  if (http.token === undefined) return { ok: true };
  if (tokenMatches(presented, http.token)) return { ok: true };
  if (tokenMatches(presented, http.metricsToken)) {
    return { ok: false, status: 403, message: `the metrics token opens only ${[...SCRAPE_PATHS].join(', ')}; ${path} needs http.token` };
  }
  return { ok: false, status: 401, message: presented === undefined ? MISSING : 'wrong token for this view (compare it with http.token in the config)' };
}

/** Both challenges: Bearer for tools, Basic so a browser asks for the token (as the password). */
export function challenges(): string[] {
  return [`Bearer realm="${AUTH_REALM}"`, `Basic realm="${AUTH_REALM}", charset="UTF-8"`];
}

/** The name in a Host header, without port or IPv6 brackets, lowercased. */
function hostName(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(1, Math.max(1, host.indexOf(']')));
  const colon = host.indexOf(':');
  return colon >= 0 && colon === host.lastIndexOf(':') ? host.slice(0, colon) : host;
}

export interface BrowserSignals {
  readonly method: string;
  readonly path: string;
  readonly host: string | undefined;
  readonly origin: string | undefined;
  readonly secFetchSite: string | undefined;
}

/** Requests that change something or spend the API's quota: never on a cross-site page's behalf. */
function acts(method: string, path: string): boolean {
  return (method !== 'GET' && method !== 'HEAD') || path === '/probe';
}

/**
 * Why a browser's request is refused (403), or undefined. On a loopback listener the Host must
 * be a loopback name: a page whose own name was rebound to 127.0.0.1 still sends its own name.
 * A request that acts is refused when `Sec-Fetch-Site` says cross-site or same-site, or when an
 * `Origin` (also `null`) is not this very host, as a form or a "simple" text/plain POST from
 * another site would be, even carrying a Basic token the browser remembered.
 */
export function browserGuard(req: BrowserSignals, listenHost: string): string | undefined {
  if (isLoopback(listenHost) && req.host !== undefined && !isLoopback(hostName(req.host))) {
    return 'this monitor listens on loopback and answers only to a loopback Host (localhost, 127.0.0.1, [::1]); another name is a DNS-rebinding attempt';
  }
  if (!acts(req.method, req.path)) return undefined;
  const site = req.secFetchSite?.toLowerCase();
  const origin = req.origin === undefined ? undefined : URL.parse(req.origin)?.host;
  const sameOrigin = req.origin === undefined || (origin !== undefined && origin === req.host?.toLowerCase());
  if (site === 'cross-site' || site === 'same-site' || !sameOrigin) {
    return `${req.method} ${req.path} refused: it came from another site's page (Origin or Sec-Fetch-Site); send it from a script or the command line (curl -X POST)`;
  }
  return undefined;
}
