/**
 * How the tools' requests leave: through the proxy `HTTPS_PROXY` / `HTTP_PROXY` name (either case,
 * `NO_PROXY` honoured) unless `proxy: false` or `--no-proxy` says direct. Over https a proxy only
 * tunnels; over plain http the key crosses it in clear, allowed with a warning. The environment is
 * passed in, so the route a tool reports is the route its agent takes.
 */
import { EnvHttpProxyAgent } from 'undici';
import { proxyFor } from '../api/client/single-attempt.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `EnvHttpProxyAgent`'s proxy options read from `env`; all empty (direct) when `useProxy` is false. */
export function proxyOptions(useProxy: boolean, env: Env): { httpProxy: string; httpsProxy: string; noProxy: string } {
  if (!useProxy) return { httpProxy: '', httpsProxy: '', noProxy: '' };
  return {
    httpProxy: env['http_proxy'] ?? env['HTTP_PROXY'] ?? '',
    httpsProxy: env['https_proxy'] ?? env['HTTPS_PROXY'] ?? '',
    noProxy: env['no_proxy'] ?? env['NO_PROXY'] ?? '',
  };
}

/** `host:port` of the proxy requests to `baseUrl` go through (never its credentials); undefined when direct. */
export function proxyRoute(baseUrl: string, useProxy: boolean, env: Env): string | undefined {
  return useProxy ? proxyFor(new URL(baseUrl), env) : undefined;
}

/** Why a plain-http `baseUrl` through `proxy` exposes the key, and the ways out (`optOut`: the tool's own); undefined otherwise. */
export function plainHttpProxyWarning(baseUrl: string, proxy: string | undefined, optOut: string): string | undefined {
  const url = new URL(baseUrl);
  if (proxy === undefined || url.protocol !== 'http:') return undefined;
  return `${url.host} is plain http and goes through the proxy ${proxy}, which sees the API key; use https, NO_PROXY=${url.hostname} or ${optOut}`;
}

/** The agent of a one-off tool (`probe`, `discover`): the environment's proxy unless `useProxy` is false. */
export function toolAgent(connectTimeoutMs: number, useProxy: boolean, env: Env): EnvHttpProxyAgent {
  return new EnvHttpProxyAgent({ ...proxyOptions(useProxy, env), connect: { timeout: connectTimeoutMs } });
}
