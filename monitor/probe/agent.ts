/** The connection choice for probes. */
import { Agent, type Dispatcher } from 'undici';
import type { MonitorTarget } from '../config/types.js';

/**
 * Pooled, not fresh: one undici Agent per target with keep-alive. A round of 1 000 keys then
 * costs a handful of TCP/TLS handshakes instead of thousands, the measured duration is the
 * API's latency rather than the handshake's, and one slow target cannot take another's
 * sockets. Connection-level faults still show: a reset or refused socket fails its probe.
 */
export function makeAgent(target: MonitorTarget, concurrency: number): Dispatcher {
  return new Agent({
    connections: concurrency,
    keepAliveTimeout: Math.min(target.intervalMs + 5_000, 120_000),
    keepAliveMaxTimeout: 600_000,
    connect: { timeout: target.timeoutMs },
  });
}
