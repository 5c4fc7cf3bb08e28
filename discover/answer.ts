/**
 * Reading one recorded answer: the evidence line a finding quotes (`GET / without a key ->
 * HTTP 401 unauthorized`) and the refusal it carries. Pure.
 */
import type { AttemptResponse, AttemptResult } from '../api/client/single-attempt.js';
import { printable } from '../diagnose/render-table.js';
import type { CallRecord, Credential } from './plan.js';
import type { Refusal } from './types.js';

const PRESENTED: Readonly<Record<Credential, string>> = { none: 'without a key', 'made-up': 'with a made-up key', key: 'with the key' };

export function isResponse(result: AttemptResult | undefined): result is AttemptResponse {
  return result?.kind === 'response';
}

export function isSuccess(result: AttemptResult | undefined): boolean {
  return isResponse(result) && result.status >= 200 && result.status < 300;
}

/** The payload of a 2xx with a valid success envelope. */
export function successData(result: AttemptResult | undefined): { readonly data: unknown } | undefined {
  return isSuccess(result) && isResponse(result) && result.classification.kind === 'ok' ? { data: result.classification.data } : undefined;
}

export function errorCodeOf(res: AttemptResponse): string | null {
  return res.envelope.valid && !res.envelope.envelope.ok ? res.envelope.envelope.error.code : null;
}

/** Whether the body is the API's envelope; a proxy's page or a bare `Unauthorized` is not. */
export function hasEnvelope(res: AttemptResponse): boolean {
  return res.envelope.valid;
}

export function contentTypeOf(res: AttemptResponse): string {
  return printable(res.headers['content-type'] ?? 'no content type');
}

/** `HTTP 401 unauthorized`, `HTTP 401, no envelope (text/plain)`, `no answer (connection ECONNREFUSED)`. */
export function answerText(result: AttemptResult): string {
  if (result.kind === 'failure') {
    const f = result.failure;
    const detail = f.kind === 'connection' || f.kind === 'tls' ? `${f.kind} ${f.code}` : f.kind === 'timeout' ? `timeout (${f.phase})` : f.kind.replace(/_/g, ' ');
    return `no answer (${printable(detail)})`;
  }
  if (result.status >= 300 && result.status < 400) return `HTTP ${result.status} redirect to ${printable(result.headers['location'] ?? '(no location)')}`;
  if (!hasEnvelope(result)) return `HTTP ${result.status}, no envelope (${contentTypeOf(result)})`;
  const code = errorCodeOf(result);
  return code === null ? `HTTP ${result.status}` : `HTTP ${result.status} ${printable(code)}`;
}

export function callText(record: CallRecord): string {
  return `GET ${record.call.path} ${PRESENTED[record.call.credential]}`;
}

export function evidenceOf(record: CallRecord): string {
  return `${callText(record)} -> ${answerText(record.result)}`;
}

/**
 * A refusal is a 4xx other than 429: the API answered and said no. A 429 says "later", a 5xx
 * or a redirect says nothing about the reading.
 */
export function refusalOf(result: AttemptResult | undefined): Refusal | undefined {
  if (!isResponse(result) || result.status < 400 || result.status >= 500 || result.status === 429) return undefined;
  return { status: result.status, code: errorCodeOf(result) };
}

export function sameRefusal(a: Refusal | undefined, b: Refusal | undefined): boolean {
  return a !== undefined && b !== undefined && a.status === b.status && a.code === b.code;
}

export function refusalText(refusal: Refusal): string {
  return refusal.code === null ? `HTTP ${refusal.status}, no envelope` : `HTTP ${refusal.status} ${refusal.code}`;
}
