/**
 * What one answer means for the checklist: a cause, never a step. The same 502 is a
 * `server_error` whether it came from the tenant row or a scope row, so whoever reads a row
 * (a table, a verdict, a log line) names what went wrong rather than where it showed.
 */
import type { AttemptResult, TransportFailure } from '../client/single-attempt.js';
import { type EnvelopeProblem, RATE_LIMIT_HEADERS } from '../contract/index.js';

export type ChecklistCause =
  | { readonly kind: 'ok' }
  /** No complete HTTP answer: DNS, refused, reset, TLS, a timeout, or a body past the size cap. */
  | { readonly kind: 'no_answer'; readonly failure: TransportFailure }
  /** An answer that is not the API's envelope: a proxy's page, a wrong path on another server. */
  | { readonly kind: 'not_api'; readonly status: number; readonly problem: EnvelopeProblem; readonly html: boolean }
  | { readonly kind: 'server_error'; readonly status: number; readonly code: string | undefined; readonly html: boolean }
  | { readonly kind: 'rate_limited'; readonly status: number; readonly retryAfter: string | undefined }
  | { readonly kind: 'redirect'; readonly status: number; readonly location: string | undefined }
  | { readonly kind: 'key_rejected'; readonly status: number; readonly code: string | undefined }
  | { readonly kind: 'tenant_mismatch'; readonly status: number; readonly code: string }
  | { readonly kind: 'scope_missing'; readonly status: number; readonly code: string }
  /** A refusal with a code the checklist does not single out (e.g. `platform_key_required`). */
  | { readonly kind: 'refused'; readonly status: number; readonly code: string }
  /** Any other error envelope, 404 included: the path or the tenant may not exist. */
  | { readonly kind: 'client_error'; readonly status: number; readonly code: string }
  /** The row could not be decided; `because` says which earlier row stopped it. */
  | { readonly kind: 'not_checked'; readonly because: string };

export type ChecklistCauseKind = ChecklistCause['kind'];

function looksLikeHtml(headers: Readonly<Record<string, string>>, excerpt: string): boolean {
  return (headers['content-type'] ?? '').includes('html') || /^\s*</.test(excerpt);
}

/** The one reading of an attempt's result the checklist rows are built from. */
export function causeOf(result: AttemptResult): ChecklistCause {
  if (result.kind === 'failure') return { kind: 'no_answer', failure: result.failure };
  const { status } = result;
  const c = result.classification;
  switch (c.kind) {
    case 'ok':
      return { kind: 'ok' };
    case 'unauthorized':
      return { kind: 'key_rejected', status, code: c.code };
    case 'tenant_mismatch':
      return { kind: 'tenant_mismatch', status, code: c.code };
    case 'insufficient_scope':
      return { kind: 'scope_missing', status, code: c.code };
    case 'forbidden':
      return { kind: 'refused', status, code: c.code };
    case 'not_found':
    case 'client_error':
      return { kind: 'client_error', status, code: c.code };
    case 'rate_limited':
      return { kind: 'rate_limited', status, retryAfter: result.headers[RATE_LIMIT_HEADERS.retryAfter] };
    case 'server_error':
      return { kind: 'server_error', status, code: c.code, html: looksLikeHtml(result.headers, result.bodyExcerpt) };
    case 'redirect':
      return { kind: 'redirect', status, location: c.location };
    case 'invalid_envelope':
      return { kind: 'not_api', status, problem: c.problem, html: looksLikeHtml(result.headers, result.bodyExcerpt) };
  }
}

/** Answers the API itself gives at a path it serves: proof the base URL leads to the API. */
export function provesApiPath(cause: ChecklistCause): boolean {
  return cause.kind === 'key_rejected' || provesKeyAccepted(cause);
}

/** Answers only a valid key can get: the server knew the key, whatever it then decided. */
export function provesKeyAccepted(cause: ChecklistCause): boolean {
  return cause.kind === 'ok' || cause.kind === 'tenant_mismatch' || cause.kind === 'scope_missing' || cause.kind === 'refused';
}
