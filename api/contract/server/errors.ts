/**
 * What only a server needs to answer with the contract: its envelopes (spec §2; clients only parse
 * them, ../envelope.ts), the status each code is sent with, the methods it serves and the content
 * type. Not shipped to generated projects.
 */
import type { Envelope, ErrorCode } from '../index.js';

export function successEnvelope<T>(data: T): Envelope<T> {
  return { ok: true, data };
}

export function errorEnvelope(code: string, message: string): Envelope<never> {
  return { ok: false, error: { code, message } };
}

/** The status each code is sent with. Only tenant_key_tenant_mismatch's is from the spec. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  unauthorized: 401,
  tenant_key_tenant_mismatch: 403,
  insufficient_scope: 403,
  platform_key_required: 403,
  rate_limited: 429,
  not_found: 404,
  method_not_allowed: 405,
  invalid_tenant_slug: 400,
  bad_request: 400,
  internal_error: 500,
};

/** Only GET is shown (spec §1); every other method is refused with 405 and `Allow: GET`. */
export const ALLOWED_METHODS = ['GET'] as const;

/** The envelope's content type (spec §1: every response is JSON). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Only the sandbox's `plain-error-bodies` fault sends it: spec §1 says every answer is JSON. */
export const PLAIN_CONTENT_TYPE = 'text/plain; charset=utf-8';
