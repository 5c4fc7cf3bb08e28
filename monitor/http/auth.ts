/**
 * Who may read what on the monitor's HTTP surface (see HttpSettings). A token is presented as
 * `Authorization: Bearer` (scripts, Prometheus) or as the password of HTTP Basic (a browser's
 * login prompt), never in a URL, and compared in constant time. Against a web page the operator
 * happens to open, `browserGuard` refuses DNS rebinding and cross-site requests that act,
 * whatever credential a browser attaches.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKey } from '../../api/client/index.js';
import { type RequestOrigin, crossSite, hostName, isLoopback } from '../../lib/index.js';
import type { HttpSettings } from '../config/types.js';

/** Paths that Prometheus and kubelets read: open by default, or behind the metrics token. */
const SCRAPE_PATHS: ReadonlySet<string> = new Set(['/metrics', '/-/healthy', '/-/ready']);

type Access = { readonly ok: true } | { readonly ok: false; readonly status: 401 | 403; readonly message: string };

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
    return {
      ok: false,
      status: 401,
      message: `${path} needs a token: send "Authorization: Bearer <token>" (http.metricsToken or http.token)`,
    };
  }
  if (http.token === undefined) return { ok: true };
  if (tokenMatches(presented, http.token)) return { ok: true };
  if (tokenMatches(presented, http.metricsToken)) {
    return { ok: false, status: 403, message: `the metrics token opens only ${[...SCRAPE_PATHS].join(', ')}; ${path} needs http.token` };
  }
  return {
    ok: false,
    status: 401,
    message: presented === undefined ? MISSING : 'wrong token for this view (compare it with http.token in the config)',
  };
}

/** Both challenges: Bearer for tools, Basic so a browser asks for the token (as the password). */
export const CHALLENGES = ['Bearer realm="repairmon"', 'Basic realm="repairmon", charset="UTF-8"'];

/**
 * Why a browser's request is refused (403), or undefined. On a loopback listener the Host must
 * name loopback: a page whose own name was rebound to 127.0.0.1 still sends its own name. A
 * request that acts is refused when it comes from another site's page (lib/loopback.ts
 * `crossSite`), even carrying a Basic token the browser remembered.
 */
export function browserGuard(method: string, path: string, headers: RequestOrigin['headers'], listenHost: string): string | undefined {
  const host = typeof headers['host'] === 'string' ? hostName(headers['host']) : undefined;
  if (isLoopback(listenHost) && headers['host'] !== undefined && (host === undefined || !isLoopback(host))) {
    return 'this monitor listens on loopback and answers only a Host header naming loopback (localhost, 127.0.0.1, [::1]); another name is a DNS-rebinding attempt';
  }
  // Requests that change something or spend the API's quota: never on a cross-site page's behalf.
  const acts = (method !== 'GET' && method !== 'HEAD') || path === '/probe';
  const why = acts ? crossSite(headers) : undefined;
  return why && `${method} ${path} ${why}: send it from a script or the command line (curl -X POST)`;
}
