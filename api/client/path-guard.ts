/**
 * Keeping a caller's path inside `{base_url}` (or inside `/platform/`). A URL parser resolves
 * `..` and `.` segments, also written `%2e`, reads `\` as `/`, drops tabs and newlines, and
 * treats `//host` as another host; some servers and proxies also decode `%2f` before routing.
 * Any of these in a path would send the key somewhere the caller did not mean, so they are
 * refused before anything is sent, with the reason.
 */
import { BASE_PATH } from '../contract/index.js';

export type PathCheck = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string };

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** `%2f` and `%5c` (`/` and `\`), also double-encoded as `%252f`. */
const ENCODED_SEPARATOR = /%(?:25)?(?:2f|5c)/i;
const ENCODED_DOT = /%(?:25)?2e/gi;

function isDotSegment(segment: string): boolean {
  const plain = segment.replace(ENCODED_DOT, '.');
  return plain === '.' || plain === '..';
}

const fail = (reason: string): PathCheck => ({ ok: false, reason });

/**
 * A path relative to `{base_url}` such as `tenants/x/repairs/17` or `/docs`, checked and
 * returned with one leading `/`. `/` alone is the base address itself.
 */
export function checkSubPath(input: unknown): PathCheck {
  if (typeof input !== 'string' || input === '') return fail('is empty: give a path relative to {base_url}, e.g. /docs');
  if (CONTROL.test(input)) return fail('contains a control character (a URL parser drops tabs and newlines)');
  if (input.includes('\\')) return fail('contains a backslash (URL parsers read it as "/")');
  if (SCHEME.test(input)) return fail('is an absolute URL: give a path relative to {base_url}');
  if (input.includes('//')) return fail('contains "//" (an empty segment, or another host when leading)');
  if (/[?#]/.test(input)) return fail('carries a query or fragment: pass { query } instead');
  if (ENCODED_SEPARATOR.test(input)) return fail('contains an encoded "/" or "\\" (%2F, %5C), which some servers decode');
  const path = input.startsWith('/') ? input : `/${input}`;
  if (path.split('/').some(isDotSegment)) return fail('contains a "." or ".." segment (also as %2E), which would leave the path');
  if (path === BASE_PATH || path.startsWith(`${BASE_PATH}/`)) return fail(`starts with ${BASE_PATH}: give the path relative to {base_url}`);
  return { ok: true, path };
}

/**
 * The last net: the URL a path resolves to, by the same parser the request uses, must stay on
 * the base URL's origin and below its path (`prefix`, e.g. `/platform/`, narrows it further).
 */
export function staysInside(base: URL, path: string, prefix = '/'): boolean {
  const root = base.pathname.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(`${base.origin}${root}${path}`);
  } catch {
    return false;
  }
  return url.origin === base.origin && url.pathname.startsWith(`${root}${prefix}`);
}
