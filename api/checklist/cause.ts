/**
 * What one answer means for the checklist: a cause, never a step (a 502 is a `server_error` on any
 * row), in the contract's answer kinds plus `not_checked` for a row no answer decided.
 */
import { type AttemptResult, type TransportFailure, answerKind } from '../client/single-attempt.js';
import { type EnvelopeProblem, RATE_LIMIT_HEADERS, printable } from '../contract/index.js';

type Refusal<K extends string> = {
  readonly kind: K;
  readonly status: number;
  readonly code: string;
};

export type ChecklistCause =
  | { readonly kind: 'ok' }
  /** No complete HTTP answer: `answerKind` of the failure (a body past the size cap is an `invalid_envelope`). */
  | {
      readonly kind: 'timeout' | 'connection_error' | 'tls_error' | 'invalid_envelope';
      readonly failure: TransportFailure;
    }
  /** An answer that is not the API's envelope: a proxy's page, a wrong path on another server. */
  | {
      readonly kind: 'invalid_envelope';
      readonly status: number;
      readonly problem: EnvelopeProblem;
      readonly detail: string;
      readonly html: boolean;
    }
  | {
      readonly kind: 'server_error';
      readonly status: number;
      readonly code: string | undefined;
      readonly html: boolean;
    }
  | {
      readonly kind: 'rate_limited';
      readonly status: number;
      readonly retryAfter: string | undefined;
    }
  | { readonly kind: 'redirect'; readonly status: number; readonly location: string | undefined }
  | { readonly kind: 'unauthorized'; readonly status: number; readonly code: string | undefined }
  | Refusal<'tenant_mismatch'>
  /** Also the scope row's cause when one resource is refused while another of the tenant is served, whatever the code. */
  | Refusal<'insufficient_scope'>
  | Refusal<'forbidden'>
  | Refusal<'not_found'>
  | Refusal<'client_error'>
  /** The row could not be decided; `because` says which earlier row stopped it. */
  | { readonly kind: 'not_checked'; readonly because: string };

function looksLikeHtml(headers: Readonly<Record<string, string>>, excerpt: string): boolean {
  return (headers['content-type'] ?? '').includes('html') || /^\s*</.test(excerpt);
}

/** An attempt's `answerKind`, with the details a row shows. */
export function causeOf(result: AttemptResult): ChecklistCause {
  if (result.kind === 'failure')
    return {
      kind: answerKind(result) as 'timeout' | 'connection_error' | 'tls_error' | 'invalid_envelope',
      failure: result.failure,
    };
  const { status, headers } = result;
  const c = result.classification;
  switch (c.kind) {
    case 'ok':
      return { kind: 'ok' };
    case 'rate_limited':
      return { kind: c.kind, status, retryAfter: headers[RATE_LIMIT_HEADERS.retryAfter] };
    case 'server_error':
      return {
        kind: c.kind,
        status,
        code: c.code,
        html: looksLikeHtml(headers, result.bodyExcerpt),
      };
    case 'redirect':
      return { kind: c.kind, status, location: c.location };
    case 'invalid_envelope':
      return {
        kind: c.kind,
        status,
        problem: c.problem,
        detail: c.detail,
        html: looksLikeHtml(headers, result.bodyExcerpt),
      };
    case 'unauthorized':
      return { kind: c.kind, status, code: c.code };
    default:
      return { kind: c.kind, status, code: c.code };
  }
}

/** Answers the API itself gives at a path it serves: proof the base URL leads to the API. */
export function provesApiPath(cause: ChecklistCause): boolean {
  return cause.kind === 'unauthorized' || provesKeyAccepted(cause);
}

/** Answers only a valid key can get: the server knew the key, whatever it then decided. */
export function provesKeyAccepted(cause: ChecklistCause): boolean {
  return (
    cause.kind === 'ok' ||
    cause.kind === 'tenant_mismatch' ||
    cause.kind === 'insufficient_scope' ||
    cause.kind === 'forbidden'
  );
}

/** Step 4: `HTTP 403 tenant_key_tenant_mismatch "…" (request id r-1)`, or why no HTTP answer came. */
export function describeAnswer(result: AttemptResult): string {
  if (result.kind === 'failure') {
    const { failure } = result;
    return printable(
      `no HTTP answer: ${failure.kind} ${'code' in failure ? `${failure.code} ` : ''}(${failure.message})`,
    );
  }
  const c = result.classification;
  const code = 'code' in c && c.code !== undefined ? ` ${c.code}` : '';
  const message = 'message' in c && c.message !== undefined ? ` "${c.message}"` : '';
  const problem = c.kind === 'invalid_envelope' ? ` invalid envelope: ${c.detail}` : '';
  const id = result.requestId ? ` (request id ${result.requestId})` : '';
  return printable(`HTTP ${result.status}${code}${message}${problem}${id}`);
}
