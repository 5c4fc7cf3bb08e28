/** Reading the key a request presents (spec §5): the server's side of `authHeader`. */
import { API_KEY_HEADER, AUTHORIZATION_HEADER, type AuthScheme } from '../index.js';

type HeaderBag = Record<string, string | string[] | undefined>;

/** The two headers a key may come in (spec §5), by their lower-case names. */
export type KeyHeader = typeof API_KEY_HEADER | typeof AUTHORIZATION_HEADER;

export type PresentedKey =
  | { readonly kind: 'none' }
  | { readonly kind: 'key'; readonly key: string; readonly scheme: AuthScheme }
  /** An Authorization that is not `Bearer <key>`, or the two headers with different keys. */
  | { readonly kind: 'malformed'; readonly problem: 'not_bearer' | 'two_keys' }
  /** The header came on more than one line: which is the key is a guess a server must not make. */
  | { readonly kind: 'repeated'; readonly header: KeyHeader };

const KEY_HEADERS: readonly KeyHeader[] = [API_KEY_HEADER, AUTHORIZATION_HEADER];

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Reads the key a request presents. Both headers with different keys, or an Authorization
 * header that is not `Bearer <key>`, are malformed: the server must not guess which to use.
 * For the same reason a key header sent twice is `repeated`; to see that, pass Node's
 * `req.headersDistinct` (one array entry per line): `req.headers` has already joined two
 * `x-api-key` lines with ", " and kept only the first `Authorization`.
 */
export function readPresentedKey(headers: HeaderBag): PresentedKey {
  for (const header of KEY_HEADERS) {
    const value = headers[header];
    if (Array.isArray(value) && value.length > 1) return { kind: 'repeated', header };
  }
  const apiKey = single(headers[API_KEY_HEADER])?.trim();
  const authorization = single(headers[AUTHORIZATION_HEADER])?.trim();
  let bearer: string | undefined;
  if (authorization !== undefined && authorization !== '') {
    const match = /^bearer\s+(\S+)$/i.exec(authorization);
    if (!match?.[1]) return { kind: 'malformed', problem: 'not_bearer' };
    bearer = match[1];
  }
  if (apiKey && bearer && apiKey !== bearer) return { kind: 'malformed', problem: 'two_keys' };
  if (bearer) return { kind: 'key', key: bearer, scheme: 'bearer' };
  if (apiKey) return { kind: 'key', key: apiKey, scheme: 'x-api-key' };
  return { kind: 'none' };
}
