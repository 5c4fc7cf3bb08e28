/** The connection choice for probes, and what the monitor learns from each new connection. */
import { TLSSocket } from 'node:tls';
import { Agent, type Dispatcher, buildConnector } from 'undici';
import type { MonitorTarget } from '../config/types.js';

export const MAX_REQUESTS_PER_CONNECTION = 1_000;

export interface AgentHooks {
  /** Called once per new TLS connection with the Unix time (s) its leaf certificate expires. */
  readonly onCertificate?: (expiresAtSeconds: number) => void;
}

/** `valid_to` as Node prints it (`Nov 22 00:19:43 2026 GMT`) -> Unix seconds; undefined if absent or unparsable. */
export function certificateExpiry(cert: { readonly valid_to?: string } | undefined): number | undefined {
  const ms = cert?.valid_to ? Date.parse(cert.valid_to) : Number.NaN;
  return Number.isFinite(ms) ? ms / 1000 : undefined;
}

/**
 * undici's own connector, watched: its callback fires after the TLS handshake and
 * verification, so the certificate read here is the one the probes trust. Only new
 * connections pass through, so the cost is per connection, not per probe.
 */
function watchingConnector(target: MonitorTarget, onCertificate: ((at: number) => void) | undefined): buildConnector.connector {
  const tls = target.tls;
  const connect = buildConnector({
    timeout: target.timeoutMs,
    ...(tls ? { ca: tls.ca } : {}),
    ...(tls?.serverName ? { servername: tls.serverName } : {}),
  });
  if (!onCertificate) return connect;
  return (options, callback) =>
    connect(options, (...args) => {
      const socket = args[1];
      if (args[0] === null && socket instanceof TLSSocket) {
        const at = certificateExpiry(socket.getPeerCertificate(false));
        if (at !== undefined) onCertificate(at);
      }
      callback(...args);
    });
}

/**
 * Pooled, not fresh: one undici Agent per target with keep-alive. A round of 1 000 keys then
 * costs a handful of TCP/TLS handshakes instead of thousands, the measured duration is the
 * API's latency rather than the handshake's, and one slow target cannot take another's
 * sockets. Connection-level faults still show: a reset or refused socket fails its probe.
 */
export function makeAgent(target: MonitorTarget, concurrency: number, hooks: AgentHooks = {}): Dispatcher {
  return new Agent({
    connections: concurrency,
    keepAliveTimeout: Math.min(target.intervalMs + 5_000, 120_000),
    keepAliveMaxTimeout: 600_000,
    // A socket used every round would otherwise live forever and the certificate gauge would
    // keep a renewed certificate's old expiry (a false expiry alert); one handshake per 1 000
    // requests per socket is noise.
    maxRequestsPerClient: MAX_REQUESTS_PER_CONNECTION,
    connect: watchingConnector(target, hooks.onCertificate),
  });
}
