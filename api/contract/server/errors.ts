/**
 * What only a server needs to answer with the contract's errors: the status each code is sent
 * with, the methods it serves and the content type. Not shipped to generated projects.
 */
import type { ErrorCode } from '../index.js';
import type { ErrorBodies } from '../readings.js';

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

/**
 * The spec leaves only the bodies of 401 and 429 open (§7: "the codes and bodies for 401 and
 * 429 ... not shown"), so readings with `error-bodies=plain` send those two as the status
 * text (what a proxy or framework sends by default); every other answer is the envelope.
 */
export const OPEN_BODY_STATUSES: readonly number[] = [401, 429];
export const PLAIN_CONTENT_TYPE = 'text/plain; charset=utf-8';

export type BodyForm = 'envelope' | 'plain';

export function bodyForm(errorBodies: ErrorBodies, status: number): BodyForm {
  return errorBodies === 'plain' && OPEN_BODY_STATUSES.includes(status) ? 'plain' : 'envelope';
}
