/**
 * Which proxy a request goes through, read from `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (either
 * case) as curl and undici's `EnvHttpProxyAgent` read them (this mirrors its rules), so a client
 * or a probe can say so and warn when a plain-http key would pass a proxy in clear.
 */
type Env = Readonly<Record<string, string | undefined>>;

/** `host:port` of the proxy `url` goes through, credentials never included; undefined when direct. */
export function proxyFor(url: URL, env: Env = process.env): string | undefined {
  const raw = url.protocol === 'https:' ? (env['https_proxy'] ?? env['HTTPS_PROXY'] ?? env['http_proxy'] ?? env['HTTP_PROXY']) : (env['http_proxy'] ?? env['HTTP_PROXY']);
  if (!raw) return undefined;
  const noProxy = env['no_proxy'] ?? env['NO_PROXY'] ?? '';
  if (noProxy.trim() === '*') return undefined;
  const host = url.hostname.toLowerCase();
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  for (const entry of noProxy.split(/[,\s]/).filter(Boolean)) {
    const [, name = entry, entryPort] = /^(.+):(\d+)$/.exec(entry) ?? [];
    const bare = name.replace(/^\*?\./, '').toLowerCase();
    if ((!entryPort || Number(entryPort) === port) && (host === bare || host.endsWith(`.${bare}`))) return undefined;
  }
  try {
    return new URL(raw).host;
  } catch {
    return 'an unparsable proxy address';
  }
}
