/**
 * Step 5 of the spec's checklist: the same request with a plain command-line client. The key
 * is written as `$VARIABLE` inside double quotes so the shell expands it and it never appears
 * on screen; everything else is single-quoted so nothing in a URL can be expanded or split.
 */
import { API_KEY_HEADER, AUTHORIZATION_HEADER, type AuthScheme, BEARER_PREFIX } from '../contract/index.js';

export interface CurlSpec {
  readonly url: string;
  /** `none` for public endpoints such as /docs. */
  readonly auth: AuthScheme | 'none';
  /** The environment variable that holds the key. */
  readonly keyVariable: string;
  readonly timeoutS?: number | undefined;
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function authArgs(auth: AuthScheme | 'none', keyVariable: string): string[] {
  if (auth === 'none') return [];
  const header = auth === 'bearer' ? `${AUTHORIZATION_HEADER}: ${BEARER_PREFIX}$${keyVariable}` : `${API_KEY_HEADER}: $${keyVariable}`;
  return ['-H', `"${header}"`];
}

/** The headers match what a single attempt sends: `accept` plus the one auth header. */
export function curlCommand(spec: CurlSpec): string {
  const parts = ['curl', '-sS', '-i'];
  if (spec.timeoutS !== undefined) parts.push('--max-time', String(spec.timeoutS));
  parts.push('-X', 'GET', '-H', shellQuote('accept: application/json'), ...authArgs(spec.auth, spec.keyVariable), shellQuote(spec.url));
  return parts.join(' ');
}
