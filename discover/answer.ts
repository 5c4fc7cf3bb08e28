/**
 * Reading one recorded answer: the evidence line a finding quotes (`GET / without a key ->
 * HTTP 401 unauthorized`) and the refusal it carries. Pure.
 */
import type { AttemptResult } from '../api/client/single-attempt.js';
import { printable } from '../api/contract/index.js';
import { type CallRecord } from '../diagnose/index.js';
import { errorOf, isResponse } from '../diagnose/index.js';
import type { Refusal } from './types.js';

export function isSuccess(result: AttemptResult | undefined): boolean {
  return isResponse(result) && result.status >= 200 && result.status < 300;
}

/** `HTTP 401 unauthorized`, `HTTP 401, no envelope (text/plain)`, `no answer (connection ECONNREFUSED)`. */
export function answerText(result: AttemptResult | undefined): string {
  if (result === undefined) return 'not sent';
  if (result.kind === 'failure') {
    const f = result.failure;
    const detail =
      f.kind === 'connection' || f.kind === 'tls'
        ? `${f.kind} ${f.code}`
        : f.kind === 'timeout'
          ? `timeout (${f.phase})`
          : f.kind.replace(/_/g, ' ');
    return `no answer (${printable(detail)})`;
  }
  if (result.status >= 300 && result.status < 400)
    return `HTTP ${result.status} redirect to ${printable(result.headers['location'] ?? '(no location)')}`;
  if (!result.envelope.valid)
    return `HTTP ${result.status}, no envelope (${printable(result.headers['content-type'] ?? 'no content type')})`;
  const code = errorOf(result)?.code;
  return code === undefined ? `HTTP ${result.status}` : `HTTP ${result.status} ${printable(code)}`;
}

export function callText(record: CallRecord): string {
  const { call } = record;
  return `GET ${call.path} ${call.auth === 'none' ? 'without a key' : call.madeUpKey ? 'with a made-up key' : 'with the key'}`;
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
  return { status: result.status, code: errorOf(result)?.code ?? null };
}

export function sameRefusal(a: Refusal | undefined, b: Refusal | undefined): boolean {
  return a !== undefined && b !== undefined && a.status === b.status && a.code === b.code;
}

export function refusalText(refusal: Refusal): string {
  return refusal.code === null ? `HTTP ${refusal.status}, no envelope` : `HTTP ${refusal.status} ${refusal.code}`;
}
