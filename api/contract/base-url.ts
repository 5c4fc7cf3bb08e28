/**
 * What makes a `{base_url}` safe to send a key to: http(s), no credentials or query that could
 * carry a key, and the version segment at the end (spec §9.1). Callers prefix the reason with
 * their own name for it (a flag, a variable, a config path).
 */
import { BASE_PATH } from './api.js';

export type BaseUrlProblem = 'control_character' | 'not_url' | 'not_http' | 'not_https' | 'credentials' | 'query' | 'version_path';

export type BaseUrlCheck =
  { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly problem: BaseUrlProblem; readonly reason: string };

export interface BaseUrlRules {
  /** Production: a key must never travel in clear text. */
  readonly requireHttps?: boolean;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A URL parser drops tabs and line breaks, so `https://h/api/v1<LF>X=1<LF>/api/v1` would pass while
 * the text still holds a line break, an extra line in a `.env` file or a log: the raw text first.
 */
function controlCharacter(raw: string): string | undefined {
  const at = raw.search(CONTROL_CHARACTER);
  if (at < 0) return undefined;
  const code = raw.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
  return `must not contain control characters (U+${code} at position ${at + 1}), such as a line break or tab from a copy-paste`;
}

export function checkBaseUrl(raw: string, rules: BaseUrlRules = {}): BaseUrlCheck {
  const fail = (problem: BaseUrlProblem, reason: string): BaseUrlCheck => ({ ok: false, problem, reason });
  const control = controlCharacter(raw);
  if (control !== undefined) return fail('control_character', control);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('not_url', `is not a URL (expected e.g. https://host${BASE_PATH})`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('not_http', `must use http or https, not ${url.protocol}`);
  if (rules.requireHttps && url.protocol !== 'https:')
    return fail('not_https', 'must use https: a production key must never travel in clear text');
  if (url.username !== '' || url.password !== '')
    return fail('credentials', 'must not carry credentials (user:password@): a key never goes in a URL');
  if (url.search !== '' || url.hash !== '') return fail('query', 'must not have a query or fragment');
  if (!url.pathname.replace(/\/+$/, '').endsWith(BASE_PATH)) {
    return fail('version_path', `must end in ${BASE_PATH} (the base address contains the version), got path "${url.pathname}"`);
  }
  return { ok: true, url };
}
