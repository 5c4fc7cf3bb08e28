/**
 * The outcome classifier: one attempt's result plus what the probe expected, in; exactly one
 * outcome from the closed set, with a label-safe reason and a human detail, out. Pure and
 * total. The outcome is `answerKind(result)`, the contract's word for the answer, so the
 * monitor, the client and the other tools cannot disagree; it never looks at a body itself.
 */
import { type AttemptResult, type TransportFailure, answerKind } from '../../api/client/single-attempt.js';
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
const labelSafe = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .slice(0, 40) || 'unknown';

function codeReason(code: string | undefined): string {
  if (code === undefined) return 'no_code';
  return isErrorCode(code) ? code : 'other_code';
}

type Found = Pick<ProbeVerdict, 'outcome' | 'reason' | 'detail'>;
type Why = Omit<Found, 'outcome'>;

function failureWhy(failure: TransportFailure): Why {
  switch (failure.kind) {
    case 'timeout':
      return { reason: `timeout_${failure.phase}`, detail: failure.message };
    case 'tls':
    case 'connection':
      return { reason: `${failure.kind}_${labelSafe(failure.code)}`, detail: failure.message };
    case 'body_too_large':
    case 'aborted':
      return { reason: failure.kind, detail: failure.message };
  }
}

function responseWhy(status: number, cls: ResponseClass): Why {
  switch (cls.kind) {
    case 'ok':
      return { reason: 'none', detail: `HTTP ${status}` };
    case 'unauthorized':
    case 'tenant_mismatch':
    case 'insufficient_scope':
    case 'forbidden':
      return { reason: `code_${codeReason(cls.code)}`, detail: `HTTP ${status} ${cls.code ?? '(no envelope code)'}` };
    case 'rate_limited':
    case 'server_error':
      return {
        reason: `status_${status}`,
        detail: `HTTP ${status}${cls.code ? ` ${cls.code}` : cls.kind === 'server_error' ? ' (no envelope code)' : ''}`,
      };
    case 'not_found':
    case 'client_error':
      return { reason: `status_${status}`, detail: `HTTP ${status} ${cls.code}` };
    case 'redirect':
      return { reason: `redirect_${status}`, detail: `HTTP ${status} redirect` };
    case 'invalid_envelope':
      return { reason: `envelope_${cls.problem}`, detail: `HTTP ${status}: ${cls.detail}` };
  }
}

/** The outcome is the answer's kind (`answerKind`, the one mapping every tool shares); the reason and detail say more. */
function found(result: AttemptResult): Found {
  const why = result.kind === 'failure' ? failureWhy(result.failure) : responseWhy(result.status, result.classification);
  return { outcome: answerKind(result), reason: why.reason, detail: why.detail };
}

/** A response with data where a refusal was expected is a breach, whatever else it says. */
function breach(expect: Expectation, got: Found): Found {
  if (expect.kind !== 'refusal' || got.outcome !== 'ok') return got;
  return { outcome: 'assertion_failed', reason: expect.breach, detail: `${expect.breachDetail} (${got.detail})` };
}

/** Statuses that refuse a request (READING: which of them a server uses is mostly not shown). */
const REFUSAL_STATUSES: ReadonlySet<number> = new Set([401, 403, 404]);
const REFUSAL_KINDS: ReadonlySet<string> = new Set(['tenant_mismatch', 'insufficient_scope', 'forbidden', 'not_found', 'client_error']);

function refusalCode(result: AttemptResult): string | undefined {
  if (result.kind !== 'response' || !REFUSAL_STATUSES.has(result.status)) return undefined;
  const c = result.classification;
  if (c.kind === 'unauthorized') return c.code ?? '';
  return REFUSAL_KINDS.has(c.kind) && 'code' in c ? c.code : undefined;
}

function itemsOf(cls: ResponseClass): number | undefined {
  return cls.kind === 'ok' && Array.isArray(cls.data) ? cls.data.length : undefined;
}

/** Every verdict is built here, in one shape: it runs once per probe (no spreads, one hidden class). */
function verdictOf(got: Found, reason: string, detail: string, expected: Outcome, success: boolean, result: AttemptResult): ProbeVerdict {
  const response = result.kind === 'response';
  const status = response ? result.status : undefined;
  const items = response ? itemsOf(result.classification) : undefined;
  return { outcome: got.outcome, reason, detail, expected, success, status, items };
}

export function classifyOutcome(result: AttemptResult, expect: Expectation): ProbeVerdict {
  const expected = expectedOutcome(expect);
  const got = breach(expect, found(result));
  const code = expect.kind === 'refusal' ? refusalCode(result) : undefined;
  if (expect.kind === 'refusal' && code !== undefined) {
    // A refusal without an envelope (a plain 401: its body is not shown) names no other code.
    if (expect.specCode === undefined || code === expect.specCode || code === '')
      return verdictOf(got, 'none', got.detail, expected, true, result);
    const status = result.kind === 'response' ? result.status : undefined;
    const detail =
      expect.codeSource === 'spec'
        ? `refused with HTTP ${status} ${code} where the spec names ${expect.specCode}: the guard held (no breach), but the API differs from the spec here`
        : `refused with HTTP ${status} ${code} where the key's expect in monitor.yaml names ${expect.specCode}: refused as expected (no breach), but with another code`;
    return verdictOf(got, `deviation_${codeReason(code)}`, detail, expected, true, result);
  }
  const success = got.outcome === expected;
  return verdictOf(got, success ? 'none' : got.reason, got.detail, expected, success, result);
}

/** The verdict for a probe not sent because the key is waiting out a server's 429 hint. */
export function heldVerdict(expect: Expectation, remainingMs: number, capNote?: string): ProbeVerdict {
  return {
    outcome: 'rate_limited',
    reason: 'held_retry_after',
    detail: `not sent: the key waits ${Math.ceil(remainingMs / 1000)} s more for the server's Retry-After${capNote ? ` (${capNote})` : ''}`,
    expected: expectedOutcome(expect),
    success: false,
    status: undefined,
    items: undefined,
  };
}
