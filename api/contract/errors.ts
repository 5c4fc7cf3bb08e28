/**
 * Error codes and the HTTP statuses they travel with (spec §7). Only two codes are in the
 * spec; every other one is an assumption, marked as such, kept here and nowhere else.
 */

export const ERROR_CODES = {
  /** Spec §5.6: an invalid key. Its status is not shown; we assume 401 (spec §7 lists 401). */
  unauthorized: 'unauthorized',
  /** Spec §4.1 and §7: tenant key used on another tenant, HTTP 403. */
  tenantMismatch: 'tenant_key_tenant_mismatch',
  /** ASSUMED: the key's scope does not cover the resource (spec §5.4 says it must not succeed). */
  insufficientScope: 'insufficient_scope',
  /** ASSUMED: a tenant key on /platform/* (spec §4.2). */
  platformKeyRequired: 'platform_key_required',
  /** ASSUMED: per-key request limit hit (spec §8 names 429, no code). */
  rateLimited: 'rate_limited',
  /** ASSUMED: no such path or tenant. */
  notFound: 'not_found',
  /** ASSUMED: anything but GET (spec §1: only reads are shown). */
  methodNotAllowed: 'method_not_allowed',
  /** ASSUMED: `{tenant}` is not a valid slug. */
  invalidTenantSlug: 'invalid_tenant_slug',
  /** ASSUMED: the request is not valid HTTP (bad request line, oversized headers). */
  badRequest: 'bad_request',
  /** ASSUMED: the server failed. */
  internalError: 'internal_error',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * READING (spec §7: codes beyond two are not shown): what any error code looks like, so a code
 * given in a setting (a missing-key code, a key's expected refusal) can be checked; also
 * label-safe.
 */
export const ERROR_CODE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** ASSUMPTION: no key at all is answered like an invalid key (the spec names no separate code). */
export const MISSING_KEY_CODE: ErrorCode = ERROR_CODES.unauthorized;

export function isErrorCode(value: string): value is ErrorCode {
  return (Object.values(ERROR_CODES) as string[]).includes(value);
}

/**
 * READING (spec §8: "rate-limit headers: not shown"): servers in the wild send any of these, so
 * clients read them all (RFC 9110, the IETF drafts' trio and single field, `X-RateLimit-*`).
 */
export const RATE_LIMIT_HEADERS = {
  retryAfter: 'retry-after',
  retryAfterMs: 'retry-after-ms',
  limit: 'ratelimit-limit',
  remaining: 'ratelimit-remaining',
  reset: 'ratelimit-reset',
  field: 'ratelimit',
  policy: 'ratelimit-policy',
  xLimit: 'x-ratelimit-limit',
  xRemaining: 'x-ratelimit-remaining',
  xReset: 'x-ratelimit-reset',
} as const;

/** ASSUMPTION: the server may send a request id in this header; we show it on every error. */
export const REQUEST_ID_HEADER = 'x-request-id';
