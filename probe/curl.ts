/**
 * Step 6 of the spec's checklist: the same call with a plain command-line client. The key is
 * written as `$REPAIR_API_KEY` inside double quotes so the shell expands it; everything else
 * is single-quoted so nothing in a URL can be expanded or split.
 */
import { API_KEY_HEADER, AUTHORIZATION_HEADER, BEARER_PREFIX, type AuthScheme } from '../templates/app/src/contract/index.js';

export const KEY_ENV_VAR = 'REPAIR_API_KEY';

export interface CurlSpec {
  readonly method: 'GET';
  readonly url: string;
  readonly auth: AuthScheme | 'none';
  readonly timeoutS?: number;
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function authArgs(auth: AuthScheme | 'none'): string[] {
  if (auth === 'none') return [];
  const header = auth === 'bearer' ? `${AUTHORIZATION_HEADER}: ${BEARER_PREFIX}$${KEY_ENV_VAR}` : `${API_KEY_HEADER}: $${KEY_ENV_VAR}`;
  return ['-H', `"${header}"`];
}

/** The headers match what `sendAttempt` sends: `accept` plus the one auth header. */
export function curlLine(spec: CurlSpec): string {
  const parts = ['curl', '-sS', '-i'];
  if (spec.timeoutS !== undefined) parts.push('--max-time', String(spec.timeoutS));
  parts.push('-X', spec.method, '-H', shellQuote('accept: application/json'), ...authArgs(spec.auth), shellQuote(spec.url));
  return parts.join(' ');
}
