/**
 * The outcome classifier: one attempt's result plus what the probe expected, in; exactly one
 * outcome from the closed set, with a label-safe reason and a human detail, out. Pure and
 * total. It maps the client's classification (`classifyResponse` via `sendAttempt`) and never
 * looks at a body itself, so the monitor and an integration cannot disagree.
 */
import type { AttemptResult, TransportFailure } from '../../api/client/single-attempt.js';
import { type ResponseClass, isErrorCode } from '../../api/contract/index.js';
import { type Expectation, type Outcome, expectedOutcome } from './expectation.js';

export interface ProbeVerdict {
  readonly outcome: Outcome;
  /** The outcome that would have counted as success. */
  readonly expected: Outcome;
  readonly success: boolean;
  /** Bounded vocabulary, safe as a metric label: `none`, `timeout_headers`, `status_503`, ... */
  readonly reason: string;
  /** For people (history, debug view); may carry the server's error code, never a key. */
  readonly detail: string;
  readonly status: number | undefined;
  /** Length of `data` when a list came back. */
  readonly items: number | undefined;
}

/** Node error codes are a bounded set, but are still squeezed into label shape. */
function labelSafe(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9_]+/g, '_').slice(0, 40) || 'unknown';
}

function codeReason(code: string | undefined): string {
  if (code === undefined) return 'no_code';
  return isErrorCode(code) ? code : 'other_code';
}

type Found = Omit<ProbeVerdict, 'expected' | 'success' | 'status' | 'items'>;

function fromFailure(failure: TransportFailure): Found {
  switch (failure.kind) {
    case 'timeout':
      return { outcome: 'timeout', reason: `timeout_${failure.phase}`, detail: failure.message };
    case 'tls':
      return { outcome: 'tls_error', reason: `tls_${labelSafe(failure.code)}`, detail: failure.message };
    case 'connection':
      return { outcome: 'connection_error', reason: `connection_${labelSafe(failure.code)}`, detail: failure.message };
    case 'body_too_large':
      return { outcome: 'invalid_envelope', reason: 'body_too_large', detail: failure.message };
    case 'aborted':
      return { outcome: 'connection_error', reason: 'aborted', detail: failure.message };
  }
}

function fromClass(status: number, cls: ResponseClass): Found {
  switch (cls.kind) {
    case 'ok':
      return { outcome: 'ok', reason: 'none', detail: `HTTP ${status}` };
    case 'unauthorized':
      return { outcome: 'unauthorized', reason: `code_${codeReason(cls.code)}`, detail: `HTTP ${status} ${cls.code ?? '(no envelope code)'}` };
    case 'tenant_mismatch':
      return { outcome: 'tenant_key_tenant_mismatch', reason: `code_${codeReason(cls.code)}`, detail: `HTTP ${status} ${cls.code}` };
    case 'insufficient_scope':
    case 'forbidden':
      return { outcome: 'forbidden', reason: `code_${codeReason(cls.code)}`, detail: `HTTP ${status} ${cls.code}` };
    case 'rate_limited':
      return { outcome: 'rate_limited', reason: 'status_429', detail: `HTTP ${status}${cls.code ? ` ${cls.code}` : ''}` };
    case 'server_error':
      return { outcome: 'server_error', reason: `status_${status}`, detail: `HTTP ${status}${cls.code ? ` ${cls.code}` : ' (no envelope code)'}` };
    case 'not_found':
    case 'client_error':
      // A 404 with the API's envelope: the path's tenant or sub-path does not exist (a config
      // finding for configured tenants and platform paths), not a broken service.
      if (status === 404) return { outcome: 'not_found', reason: 'status_404', detail: `HTTP 404 ${cls.code}` };
      return { outcome: 'unexpected_status', reason: `status_${status}`, detail: `HTTP ${status} ${cls.code}` };
    case 'redirect':
      return { outcome: 'unexpected_status', reason: `redirect_${status}`, detail: `HTTP ${status} redirect` };
    case 'invalid_envelope':
      return { outcome: 'invalid_envelope', reason: `envelope_${cls.problem}`, detail: `HTTP ${status}: ${cls.detail}` };
  }
}

/** A response with data where a refusal was expected is a breach, whatever else it says. */
function breach(expect: Expectation, got: Found): Found {
  if (expect.kind !== 'refusal' || got.outcome !== 'ok') return got;
  return { outcome: 'assertion_failed', reason: expect.breach, detail: `${expect.breachDetail} (${got.detail})` };
}

/** Statuses that refuse a request (READING: which of them a server uses is mostly not shown). */
const REFUSAL_STATUSES: ReadonlySet<number> = new Set([401, 403, 404]);

function refusalCode(result: AttemptResult): string | undefined {
  if (result.kind !== 'response' || !REFUSAL_STATUSES.has(result.status)) return undefined;
  const c = result.classification;
  if (c.kind === 'unauthorized') return c.code ?? '';
  if (c.kind === 'tenant_mismatch' || c.kind === 'insufficient_scope' || c.kind === 'forbidden' || c.kind === 'not_found' || c.kind === 'client_error') return c.code;
  return undefined;
}

function itemsOf(cls: ResponseClass): number | undefined {
  return cls.kind === 'ok' && Array.isArray(cls.data) ? cls.data.length : undefined;
}

export function classifyOutcome(result: AttemptResult, expect: Expectation): ProbeVerdict {
  const expected = expectedOutcome(expect);
  const got = result.kind === 'failure' ? fromFailure(result.failure) : breach(expect, fromClass(result.status, result.classification));
  const status = result.kind === 'response' ? result.status : undefined;
  const items = result.kind === 'response' ? itemsOf(result.classification) : undefined;
  const code = expect.kind === 'refusal' ? refusalCode(result) : undefined;
  if (expect.kind === 'refusal' && code !== undefined) {
    // A refusal without an envelope (a plain 401: its body is not shown) names no other code.
    if (expect.specCode === undefined || code === expect.specCode || code === '') return { ...got, reason: 'none', expected, success: true, status, items };
    const detail =
      expect.codeSource === 'spec'
        ? `refused with HTTP ${status} ${code} where the spec names ${expect.specCode}: the guard held (no breach), but the API differs from the spec here`
        : `refused with HTTP ${status} ${code} where the key's expect in monitor.yaml names ${expect.specCode}: refused as expected (no breach), but with another code`;
    return { ...got, reason: `deviation_${codeReason(code)}`, detail, expected, success: true, status, items };
  }
  const success = got.outcome === expected;
  return { ...got, reason: success ? 'none' : got.reason, expected, success, status, items };
}

/** The verdict for a probe not sent because the key is waiting out a server's 429 hint. */
export function heldVerdict(expect: Expectation, remainingMs: number, capNote?: string): ProbeVerdict {
  return {
    outcome: 'rate_limited',
    expected: expectedOutcome(expect),
    success: false,
    reason: 'held_retry_after',
    detail: `not sent: the key waits ${Math.ceil(remainingMs / 1000)} s more for the server's Retry-After${capNote ? ` (${capNote})` : ''}`,
    status: undefined,
    items: undefined,
  };
}
