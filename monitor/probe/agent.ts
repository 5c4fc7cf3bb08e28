/** The connection choice for probes (direct or through a proxy), and what the monitor learns from each new connection. */
import { TLSSocket } from 'node:tls';
import { type Dispatcher, EnvHttpProxyAgent, Pool, buildConnector } from 'undici';
import { plainHttpProxyWarning, proxyOptions, proxyRoute } from '../../lib/index.js';
import type { MonitorTarget } from '../config/types.js';

/** `valid_to` as Node prints it (`Nov 22 00:19:43 2026 GMT`) -> Unix seconds; undefined if absent or unparsable. */
export function certificateExpiry(cert: { readonly valid_to?: string } | undefined): number | undefined {
  const ms = cert?.valid_to ? Date.parse(cert.valid_to) : Number.NaN;
  return Number.isFinite(ms) ? ms / 1000 : undefined;
}

/**
 * Every connection goes through this factory, direct or in a proxy's CONNECT tunnel: its
 * connector (undici's own, or the tunnel's) calls back after the TLS handshake and
 * verification, so the certificate read here is the one the probes trust, the API's own
 * behind a proxy too. Only new connections pass through: the cost is per connection.
 */
function watchingFactory(onCertificate: (at: number) => void): (origin: URL, options: Pool.Options) => Dispatcher {
  return (origin, options) => {
    const connect = typeof options.connect === 'function' ? options.connect : buildConnector({ ...options.connect });
    const watched: buildConnector.connector = (opts, callback) =>
      connect(opts, (...args) => {
        const socket = args[1];
        if (args[0] === null && socket instanceof TLSSocket) {
          const at = certificateExpiry(socket.getPeerCertificate(false));
          if (at !== undefined) onCertificate(at);
        }
        callback(...args);
      });
    return new Pool(origin, { ...options, connect: watched });
  };
}

/** The proxy a target's probes go through (`host:port`), undefined when direct (`proxy: false`, NO_PROXY, none set). */
export function targetProxy(target: MonitorTarget, env: NodeJS.ProcessEnv): string | undefined {
  return proxyRoute(target.baseUrl, target.proxy !== false, env);
}

/** check-config's and serve's warning for a plain-http target whose key crosses a proxy; undefined otherwise. */
export function targetProxyWarning(target: MonitorTarget, env: NodeJS.ProcessEnv): string | undefined {
  return plainHttpProxyWarning(target.baseUrl, targetProxy(target, env), `\`proxy: false\` on target ${target.name}`);
}

/**
 * Pooled, not fresh: one agent per target with keep-alive. A round of 1 000 keys then costs a
 * handful of TCP/TLS handshakes instead of thousands, the measured duration is the API's
 * latency rather than the handshake's, and one slow target cannot take another's sockets.
 * Connection-level faults still show: a reset or refused socket fails its probe. Through the
 * environment's proxy unless the target says `proxy: false` (see lib/proxy-route.ts).
 *
 * A direct target gets the origin's Pool itself, the one EnvHttpProxyAgent would reach through
 * its Agent: a target has one origin, so the proxy decision is made once here instead of parsing
 * the origin per request (about a tenth of a probe's CPU, bench/README.md "Where the time went").
 */
export function makeAgent(
  target: MonitorTarget,
  concurrency: number,
  /** `onCertificate`: once per new TLS connection, with the Unix time (s) its leaf certificate expires. */
  hooks: { readonly onCertificate?: (expiresAtSeconds: number) => void } = {},
  env: NodeJS.ProcessEnv = process.env,
): Dispatcher {
  const tls = {
    timeout: target.timeoutMs,
    ...(target.tls ? { ca: target.tls.ca } : {}),
    ...(target.tls?.serverName ? { servername: target.tls.serverName } : {}),
  };
  const pooled = {
    connections: concurrency,
    keepAliveTimeout: Math.min(target.intervalMs + 5_000, 120_000),
    keepAliveMaxTimeout: 600_000,
    // A socket used every round would otherwise live forever and the certificate gauge would
    // keep a renewed certificate's old expiry (a false expiry alert); one handshake per 1 000
    // requests per socket is noise.
    maxRequestsPerClient: 1_000,
    connect: tls,
  };
  const watched = hooks.onCertificate ? watchingFactory(hooks.onCertificate) : undefined;
  if (targetProxy(target, env) === undefined) {
    const origin = new URL('/', target.baseUrl);
    return watched ? watched(origin, pooled) : new Pool(origin, pooled);
  }
  return new EnvHttpProxyAgent({
    ...proxyOptions(target.proxy !== false, env),
    ...pooled,
    // The TLS to the API inside a proxy's tunnel: the same trust and name.
    requestTls: tls,
    ...(watched ? { factory: watched } : {}),
  });
}
