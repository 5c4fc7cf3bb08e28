/**
 * What one call observed, turned into the columns of a row and a finding. Pure: the calls
 * were made elsewhere and arrive as `sendAttempt` results.
 */
import { type ChecklistCause, causeOf } from '../api/checklist/index.js';
import { type AuthScheme, type EndpointId, ERROR_CODES, RATE_LIMIT_HEADERS, type TenantResource } from '../api/contract/index.js';
import type { AttemptResponse, AttemptResult, RetryHint } from '../api/client/single-attempt.js';
import type { DiagnosisRequest, DiagnosisRow, Finding, RateLimitHeaders } from './types.js';

export interface DiagnosisCall {
  /** `docs`, `index`, `platform:<sub>`, `scope:<resource>`, `clients:other-header`, `guess:<slug>`. */
  readonly id: string;
  readonly endpoint: EndpointId;
  /** Relative to the base URL. */
  readonly path: string;
  readonly auth: AuthScheme | 'none';
}

export interface CallRecord {
  readonly call: DiagnosisCall;
  readonly url: string;
  /** Undefined when the call was not made (the run stopped first: see the report's traffic). */
  readonly result: AttemptResult | undefined;
  /** Requests sent for this call: 0 not run, 2 when a 429 was retried after the wait it asked for. */
  readonly attempts: number;
  /** For a 429: the wait the server asked for, read when the answer arrived. */
  readonly retryHint?: RetryHint | undefined;
}

export type Observations = ReadonlyMap<string, CallRecord>;

export interface FindingContext {
  readonly testKeyOnProduction: boolean;
  readonly probedTenant: string | undefined;
  readonly keyTenant: string | undefined;
}

export function rateLimitOf(headers: Readonly<Record<string, string>>): RateLimitHeaders | undefined {
  const info: Record<string, string> = {};
  const pick = (field: keyof RateLimitHeaders, name: string): void => {
    const value = headers[name];
    if (value !== undefined) info[field] = value;
  };
  pick('limit', RATE_LIMIT_HEADERS.limit);
  pick('remaining', RATE_LIMIT_HEADERS.remaining);
  pick('reset', RATE_LIMIT_HEADERS.reset);
  pick('retryAfter', RATE_LIMIT_HEADERS.retryAfter);
  return Object.keys(info).length > 0 ? info : undefined;
}

export function looksLikeHtml(res: AttemptResponse): boolean {
  const type = res.headers['content-type'] ?? '';
  return type.includes('html') || /^\s*</.test(res.bodyExcerpt);
}

export function errorOf(res: AttemptResponse): { code: string; message: string } | undefined {
  return res.envelope.valid && !res.envelope.envelope.ok ? res.envelope.envelope.error : undefined;
}

export function checkRequest(record: CallRecord): DiagnosisRequest {
  return { method: 'GET', url: record.url, auth: record.call.auth };
}

/** The observed columns of a row: status, code, Polish message, latency, request id. */
export function observedColumns(record: CallRecord): Partial<DiagnosisRow> {
  const result = record.result;
  const base = { request: checkRequest(record) };
  if (result === undefined) return base;
  const latencyMs = Math.round(result.timings.totalMs);
  const cause = causeOf(result);
  if (result.kind === 'failure') return { ...base, cause, latencyMs };
  const error = errorOf(result);
  const rateLimit = rateLimitOf(result.headers);
  return {
    ...base,
    cause,
    httpStatus: result.status,
    latencyMs,
    ...(error ? { errorCode: error.code, serverMessage: error.message } : {}),
    ...(result.requestId !== undefined ? { requestId: result.requestId } : {}),
    ...(rateLimit ? { rateLimit } : {}),
  };
}

/** Probe context the checklist's cause does not carry: which tenants and environment were meant, the 429's hint. */
export function findingFromCause(cause: ChecklistCause, ctx: FindingContext, resource?: TenantResource, hint?: RetryHint): Finding {
  switch (cause.kind) {
    case 'ok':
      return { kind: 'ok' };
    case 'no_answer':
      return { kind: 'unreachable', failure: cause.failure };
    case 'not_api':
      return { kind: 'not_api', status: cause.status, problem: cause.problem, html: cause.html };
    case 'server_error':
      return { kind: 'server_error', status: cause.status, html: cause.html };
    case 'rate_limited':
      return { kind: 'rate_limited', retryAfterS: hint === undefined ? undefined : Math.ceil(hint.delayMs / 1000), hintSource: hint?.source };
    case 'redirect':
      return { kind: 'redirect', status: cause.status, location: cause.location };
    case 'key_rejected':
      return { kind: 'key_rejected', testKeyOnProduction: ctx.testKeyOnProduction };
    case 'tenant_mismatch':
      return { kind: 'tenant_mismatch', urlTenant: ctx.probedTenant ?? '?', keyTenant: ctx.keyTenant };
    case 'scope_missing':
      return resource ? { kind: 'scope_missing', resource, readable: [] } : { kind: 'unexpected', status: cause.status, code: cause.code };
    case 'client_error':
      return cause.code === ERROR_CODES.notFound ? { kind: 'not_found', status: cause.status } : { kind: 'unexpected', status: cause.status, code: cause.code };
    case 'refused':
      return { kind: 'unexpected', status: cause.status, code: cause.code };
    case 'not_checked':
      return { kind: 'not_run', because: cause.because };
  }
}

/** The finding for a recorded answer: `ok` or the most specific reason it is not, read by the checklist core. */
export function findingOf(record: CallRecord & { readonly result: AttemptResult }, ctx: FindingContext, resource?: TenantResource): Finding {
  return findingFromCause(causeOf(record.result), ctx, resource, record.retryHint);
}

/**
 * Whether the API v1 itself answered at this path: a valid envelope that is not a 404
 * (no such path), a redirect, a 429 or a 5xx. A 401 or 403 still proves the path is right.
 */
export function answeredByApi(result: AttemptResult | undefined): boolean {
  if (result === undefined || result.kind === 'failure' || !result.envelope.valid) return false;
  const s = result.status;
  return s < 500 && s !== 429 && s !== 404 && !(s >= 300 && s < 400);
}
