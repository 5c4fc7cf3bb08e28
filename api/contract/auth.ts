/** The two ways to present an API key (spec §5) and the key kinds and scopes. */
import type { TenantResource } from './api.js';

export const AUTH_SCHEMES = ['bearer', 'x-api-key'] as const;
export type AuthScheme = (typeof AUTH_SCHEMES)[number];

/** Header names in lowercase, as Node and undici hand them over. */
export const API_KEY_HEADER = 'x-api-key';
export const AUTHORIZATION_HEADER = 'authorization';
export const BEARER_PREFIX = 'Bearer ';

/** Headers that carry a key: redact these before anything is logged. */
export const SECRET_HEADERS: readonly string[] = [API_KEY_HEADER, AUTHORIZATION_HEADER];

export function isAuthScheme(value: string): value is AuthScheme {
  return (AUTH_SCHEMES as readonly string[]).includes(value);
}

export function authHeader(
  scheme: AuthScheme,
  key: string,
): { readonly name: string; readonly value: string } {
  return scheme === 'bearer'
    ? { name: AUTHORIZATION_HEADER, value: `${BEARER_PREFIX}${key}` }
    : { name: API_KEY_HEADER, value: key };
}

export function otherScheme(scheme: AuthScheme): AuthScheme {
  return scheme === 'bearer' ? 'x-api-key' : 'bearer';
}

export const KEY_KINDS = ['platform', 'tenant'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

export const ENVIRONMENTS = ['test', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * ASSUMPTION (spec §5: "the list of scope names: not shown"). A scope is named after the
 * resource it lets a key read; `platform` lets a platform key call /platform/*.
 */
export type Scope = TenantResource | 'platform';
export function scopeForResource(resource: TenantResource): Scope {
  return resource;
}

/**
 * ASSUMPTION (spec §5: "key format rules: not shown"): the sandbox's prefixes; tools use them only
 * as a hint ("a test key used against production"), never to accept or refuse a key.
 */
export const KEY_PREFIXES: Readonly<Record<Environment, string>> = {
  test: 'rs_test_',
  production: 'rs_live_',
};

export function environmentHint(key: string): Environment | undefined {
  return ENVIRONMENTS.find((environment) => key.startsWith(KEY_PREFIXES[environment]));
}
