/**
 * What one answer means for the checklist: a cause, never a step (a 502 is a `server_error` on any
 * row), in the contract's answer kinds plus `not_checked` for a row no answer decided.
 */
import { type AttemptResult, type TransportFailure, answerKind } from '../client/single-attempt.js';
import { type EnvelopeProblem, RATE_LIMIT_HEADERS, printable } from '../contract/index.js';

type Answered<K, T = { code: string }> = {
  readonly kind: K;
  readonly status: number;
} & Readonly<T>;

export type ChecklistCause =
  | { readonly kind: 'ok' }
  /**
   * No complete HTTP answer: `answerKind` of the failure (a body past the size cap is an
   * `invalid_envelope`).
   */
  | {
      readonly kind: 'timeout' | 'connection_error' | 'tls_error' | 'invalid_envelope';
      readonly failure: TransportFailure;
    }
  /** An answer that is not the API's envelope: a proxy's page, a wrong path on another server. */
  | Answered<'invalid_envelope', { problem: EnvelopeProblem; detail: string; html: boolean }>
  | Answered<'server_error', { code: string | undefined; html: boolean }>
  | Answered<'rate_limited', { retryAfter: string | undefined }>
  | Answered<'redirect', { location: string | undefined }>
  | Answered<'unauthorized', { code: string | undefined }>
  | Answered<'tenant_mismatch'>
  /** Also a scope row's cause when one resource is refused, another served, whatever the code. */
  | Answered<'insufficient_scope'>
  | Answered<'forbidden'>
  | Answered<'not_found'>
  | Answered<'client_error'>
  /** The row could not be decided; `because` says which earlier row stopped it. */
  | { readonly kind: 'not_checked'; readonly because: string };

/** An attempt's `answerKind`, with what a row shows (`html`: a proxy's page, not the API). */
export function causeOf(result: AttemptResult): ChecklistCause {
  if (result.kind === 'failure')
    return { kind: answerKind(result), failure: result.failure } as ChecklistCause;
  const { status, headers, classification: c } = result;
  const html = (headers['content-type'] ?? '').includes('html') || /^\s*</.test(result.bodyExcerpt);
  switch (c.kind) {
    case 'ok':
      return { kind: 'ok' };
    case 'rate_limited':
      return { kind: c.kind, status, retryAfter: headers[RATE_LIMIT_HEADERS.retryAfter] };
    case 'server_error':
      return { kind: c.kind, status, code: c.code, html };
    case 'redirect':
      return { kind: c.kind, status, location: c.location };
    case 'invalid_envelope':
      return { kind: c.kind, status, problem: c.problem, detail: c.detail, html };
    default:
      return { kind: c.kind, status, code: c.code } as ChecklistCause;
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

/** Step 4: `HTTP 403 tenant_key_tenant_mismatch "…" (request id r-1)`, or why no answer came. */
export function describeAnswer(result: AttemptResult): string {
  if (result.kind === 'failure') {
    const { failure } = result;
    const code = 'code' in failure ? `${failure.code} ` : '';
    return printable(`no HTTP answer: ${failure.kind} ${code}(${failure.message})`);
  }
  const c = result.classification;
  const code = 'code' in c && c.code !== undefined ? ` ${c.code}` : '';
  const message = 'message' in c && c.message !== undefined ? ` "${c.message}"` : '';
  const problem = c.kind === 'invalid_envelope' ? ` invalid envelope: ${c.detail}` : '';
  const id = result.requestId ? ` (request id ${result.requestId})` : '';
  return printable(`HTTP ${result.status}${code}${message}${problem}${id}`);
}
