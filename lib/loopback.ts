/**
 * Whether a request to a local-only surface comes from this machine and from no web page: a
 * loopback peer, a `Host` that names loopback (a rebound DNS name does not), and no
 * `Origin`/`Sec-Fetch-Site` of another site. The sandbox's fault control and `monitor/http/auth.ts` use it.
 */
import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1 and `localhost`: only this machine can connect. Anything else is reachable from outside. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(bare);
}

/** The host name of a `Host` header value (`name`, `name:port`, `[v6]:port`), or undefined when it has none. */
export function hostName(header: string): string | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(header.trim());
  return match?.[1];
}

/** `req.socket.remoteAddress` and `req.headers`. */
export interface RequestOrigin {
  readonly remoteAddress: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Why the request may not reach a loopback-only surface, or undefined when it may. */
export function notLocal({ remoteAddress, headers }: RequestOrigin): string | undefined {
  if (remoteAddress === undefined || !isLoopback(remoteAddress)) return 'answers only connections from this machine (loopback)';
  const host = typeof headers['host'] === 'string' ? headers['host'] : undefined;
  const name = host === undefined ? undefined : hostName(host);
  if (name === undefined || !isLoopback(name)) return 'answers only a Host header naming loopback (localhost, 127.0.0.1, [::1])';
  return crossSite(headers);
}

/** Why a request comes from another site's page (`Sec-Fetch-Site`, or an `Origin`, also `null`, not its own host), or undefined. */
export function crossSite(headers: RequestOrigin['headers']): string | undefined {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    return `refuses cross-site requests (Sec-Fetch-Site: ${String(site)})`;
  const origin = headers['origin'];
  if (origin !== undefined) {
    const host = typeof headers['host'] === 'string' ? headers['host'] : undefined;
    const parsed = typeof origin === 'string' ? URL.parse(origin) : null;
    if (parsed === null || parsed.host !== host?.trim().toLowerCase()) return 'refuses requests from another origin (Origin header)';
  }
  return undefined;
}
