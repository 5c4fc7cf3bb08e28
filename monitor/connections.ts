/**
 * The monitor's connections: one dispatcher per target (a keep-alive Agent by default, or the
 * test's), replaced whole on a reload; the replaced set closes when its last round is done.
 */
import type { Dispatcher } from 'undici';
import type { MonitorTarget } from './config/types.js';
import { makeAgent } from './probe/agent.js';

export interface ConnectionDeps {
  /** Tests pass a MockAgent, which the monitor then never closes. */
  readonly dispatcherFor?: ((target: MonitorTarget) => Dispatcher) | undefined;
  readonly env: NodeJS.ProcessEnv;
  /** Each certificate a target's TLS handshake showed (its expiry for the metrics). */
  readonly onCertificate: (target: string, notAfter: number) => void;
}

export type ConnectionSet = ReadonlyMap<string, Dispatcher>;

export function createConnections(deps: ConnectionDeps) {
  const open = (t: MonitorTarget, concurrency: number): Dispatcher =>
    deps.dispatcherFor?.(t) ?? makeAgent(t, concurrency, { onCertificate: (at) => deps.onCertificate(t.name, at) }, deps.env);
  let agents = new Map<string, Dispatcher>();
  const close = async (set: ConnectionSet): Promise<void> => {
    if (!deps.dispatcherFor) await Promise.allSettled([...set.values()].map((a) => a.close()));
  };
  return {
    /** The target's dispatcher; opened on first use for a target the config does not list yet. */
    for(target: MonitorTarget, concurrency: number): Dispatcher {
      let found = agents.get(target.name);
      if (!found) agents.set(target.name, (found = open(target, concurrency)));
      return found;
    },
    /** New connections for `targets`; returns the old set, for `close` once its rounds are done. */
    replace(targets: readonly MonitorTarget[], concurrency: number): ConnectionSet {
      const old = agents;
      agents = new Map(targets.map((t) => [t.name, open(t, concurrency)]));
      return old;
    },
    close,
    closeAll: (): Promise<void> => close(agents),
  };
}
