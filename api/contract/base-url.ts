/**
 * What makes a `{base_url}` safe to send a key to: http(s), no credentials or query that
 * could carry a key, and the version segment at the end (spec §9.1). One check for the
 * generator, a project's config, the client's options and any tool's config; each
 * caller adds its own prefix (a flag, a variable, a config path).
 */
import { BASE_PATH } from './api.js';

export type BaseUrlProblem = 'not_url' | 'not_http' | 'not_https' | 'credentials' | 'query' | 'version_path';

export type BaseUrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly problem: BaseUrlProblem; readonly reason: string };

export interface BaseUrlRules {
  /** Production: a key must never travel in clear text. */
  readonly requireHttps?: boolean;
}

export function checkBaseUrl(raw: string, rules: BaseUrlRules = {}): BaseUrlCheck {
  const fail = (problem: BaseUrlProblem, reason: string): BaseUrlCheck => ({ ok: false, problem, reason });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('not_url', `is not a URL (expected e.g. https://host${BASE_PATH})`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('not_http', `must use http or https, not ${url.protocol}`);
  if (rules.requireHttps && url.protocol !== 'https:') return fail('not_https', 'must use https: a production key must never travel in clear text');
  if (url.username !== '' || url.password !== '') return fail('credentials', 'must not carry credentials (user:password@): a key never goes in a URL');
  if (url.search !== '' || url.hash !== '') return fail('query', 'must not have a query or fragment');
  if (!url.pathname.replace(/\/+$/, '').endsWith(BASE_PATH)) {
    return fail('version_path', `must end in ${BASE_PATH} (the base address contains the version), got path "${url.pathname}"`);
  }
  return { ok: true, url };
}
