/**
 * The certificate each https target served: one gauge per target, set when a connection
 * opens (see probe/agent.ts). Labelled by target name only; a host or URL never goes in a
 * label.
 */
import { Gauge, type Registry } from 'prom-client';
import type { MonitorTarget } from '../config/types.js';

export interface TlsMetrics {
  /** Records the leaf certificate's expiry (Unix s) for a target of the running config. */
  observe(target: string, expiresAtSeconds: number): void;
  /**
   * Follows a (re)loaded config: a target that went away, stopped being https or changed its
   * URL or trust loses its series until its next connection reports again.
   */
  retain(targets: readonly MonitorTarget[]): void;
}

function identity(t: MonitorTarget): string | undefined {
  if (!/^https:/i.test(t.baseUrl)) return undefined;
  return JSON.stringify([t.baseUrl, t.tls?.caFile ?? '', t.tls?.ca ?? '', t.tls?.serverName ?? '']);
}

export function createTlsMetrics(registry: Registry): TlsMetrics {
  const expiry = new Gauge({
    name: 'repairmon_tls_cert_expiry_timestamp_seconds',
    help: "When the leaf certificate served on the target's latest new TLS connection expires (Unix time); https targets only",
    labelNames: ['target'],
    registers: [registry],
  });
  let watched = new Map<string, string>();
  return {
    observe(target, expiresAtSeconds) {
      // A late connection of a removed target must not bring its series back.
      if (watched.has(target)) expiry.set({ target }, expiresAtSeconds);
    },
    retain(targets) {
      const next = new Map(
        targets.flatMap((t) => {
          const id = identity(t);
          return id === undefined ? [] : [[t.name, id] as const];
        }),
      );
      for (const [name, id] of watched) if (next.get(name) !== id) expiry.remove({ target: name });
      watched = next;
    },
  };
}
