/**
 * Query parameters for a call. The spec shows none, so a real API may add pagination or
 * filters; the client sends whatever you give it, encoded, with one exception: a name that
 * looks like a credential is refused, because a key in a URL ends up in proxy and server
 * access logs, browser history and `Referer` headers. The client always sends the key in a
 * header.
 */
import type { ApiKey } from './api-key.js';

export type QueryValue = string | number | boolean | bigint;
/** A plain record (arrays repeat the name; `undefined` and `null` are left out) or `URLSearchParams`. */
export type QueryParams = URLSearchParams | Readonly<Record<string, QueryValue | readonly QueryValue[] | null | undefined>>;

/** Parameter names refused in a query, compared lowercase without `-`, `_`, `.` and spaces. */
const CREDENTIAL_NAMES: ReadonlySet<string> = new Set(
  'apikey xapikey key token accesstoken authtoken apitoken sessiontoken idtoken refreshtoken auth authorization bearer jwt secret apisecret clientsecret password passwd credentials'.split(' '),
);

/** Whether a query parameter name reads as a credential (`api_key`, `X-Api-Key`, `token`...). */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAMES.has(name.toLowerCase().replace(/[-_.\s]/g, ''));
}

function refuseName(name: string): void {
  if (name === '') throw new TypeError('option "query" has an empty parameter name');
  if (isCredentialName(name)) {
    throw new TypeError(`option "query" parameter "${name}" looks like a credential: a key never goes in a URL (the client sends it in a header)`);
  }
}

function valueText(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new TypeError(`option "query" parameter "${name}" must be a string, finite number, boolean or an array of them, got ${value === null ? 'null' : typeof value}`);
}

function pairsOf(query: QueryParams): Array<[string, string]> {
  if (query instanceof URLSearchParams) return [...query.entries()];
  if (typeof query !== 'object' || query === null) throw new TypeError('option "query" must be a record of parameters or URLSearchParams');
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value as readonly unknown[]) pairs.push([name, valueText(name, item)]);
    else pairs.push([name, valueText(name, value)]);
  }
  return pairs;
}

/**
 * Encodes `query` (RFC 3986 percent-encoding of names and values). Throws a TypeError naming
 * the parameter for a credential-like name, a value that is not text, or a value holding one
 * of `secrets` (the message never shows the value). Undefined for an empty query.
 */
export function encodeQuery(query: QueryParams, secrets: readonly ApiKey[] = []): string | undefined {
  const parts: string[] = [];
  for (const [name, value] of pairsOf(query)) {
    refuseName(name);
    if (secrets.some((key) => value.includes(key.reveal()))) {
      throw new TypeError(`option "query" parameter "${name}" holds the API key: a key never goes in a URL`);
    }
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  }
  return parts.length === 0 ? undefined : parts.join('&');
}
