/**
 * What the monitor says about the way its probes leave: one info series per target,
 * `repairmon_target_proxy_info{target, proxy}` with `proxy` the proxy's `host:port` (never its
 * credentials) or `direct`, and a warning, once per target, for a plain-http target whose key
 * crosses a proxy in clear. The route is decided per target (its base URL, `proxy: false`, the
 * environment), so every probe of a target shares it.
 */
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { MonitorTarget } from '../config/types.js';
import { targetProxy, targetProxyWarning } from '../probe/agent.js';

export const DIRECT = 'direct';

export interface ProxyRoutes {
  /** Sets the series afresh for a (re)loaded config; warns about a target not warned about before. */
  describe(targets: readonly MonitorTarget[]): void;
}

export function createProxyRoutes(registry: Registry, env: NodeJS.ProcessEnv, logger: Logger): ProxyRoutes {
  const info = new Gauge({
    name: 'repairmon_target_proxy_info',
    help: 'The proxy (host:port) the target\'s probes go through, or "direct"; value 1',
    labelNames: ['target', 'proxy'],
    registers: [registry],
  });
  /** `name baseUrl` of the targets already warned about: a reload does not repeat the warning. */
  const warned = new Set<string>();
  return {
    describe(targets) {
      info.reset();
      for (const t of targets) {
        info.set({ target: t.name, proxy: targetProxy(t, env) ?? DIRECT }, 1);
        const warning = targetProxyWarning(t, env);
        if (warning === undefined || warned.has(`${t.name} ${t.baseUrl}`)) continue;
        warned.add(`${t.name} ${t.baseUrl}`);
        logger.warn({ target: t.name }, warning);
      }
    },
  };
}
