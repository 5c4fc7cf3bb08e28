/**
 * What every call returns: a real `Promise` of the data, with `withResponse()` for the
 * response around it (status, headers, request id, rate-limit state), as openai-node's
 * APIPromise offers. The response is kept by the call anyway; it is turned into an
 * `ApiResponse` only when asked for.
 */
import { SECRET_HEADERS } from '../contract/index.js';
import type { AttemptResponse } from './attempt.js';
import { type RateLimitInfo, parseRateLimitInfo } from './retry-hints.js';

export interface ApiResponse {
  readonly status: number;
  /** Response headers, names lowercase; credential and cookie headers are left out. */
  readonly headers: Readonly<Record<string, string>>;
  /** The server's request id (`x-request-id`), for support tickets. */
  readonly requestId: string | undefined;
  /** Limit, remaining and reset, from whichever rate-limit header style the server sent. */
  readonly rateLimit: RateLimitInfo;
  readonly method: 'GET';
  /** Relative to `{base_url}`, without the query. */
  readonly path: string;
  /** Attempts the call took (1 when the first one succeeded). */
  readonly attempts: number;
}

export interface WithResponse<T> {
  readonly data: T;
  readonly response: ApiResponse;
}

export interface ApiPromise<T> extends Promise<T> {
  /** The data together with the response it came in. Rejects as the call does. */
  withResponse(): Promise<WithResponse<T>>;
}

/** What `withResponse()` reads: a finished call. */
export interface ResponseSource {
  readonly response: AttemptResponse | undefined;
  readonly attempts: number;
  readonly plan: { readonly path: string };
}

/** Never handed out, even though they are response headers: they can carry credentials. */
const HIDDEN_HEADERS: ReadonlySet<string> = new Set([...SECRET_HEADERS, 'proxy-authorization', 'set-cookie', 'cookie']);

function publicHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) if (!HIDDEN_HEADERS.has(name)) out[name] = headers[name] as string;
  return out;
}

export function responseOf(source: ResponseSource, nowMs: number): ApiResponse {
  const res = source.response;
  if (!res) throw new Error('internal: withResponse() on a call without a response');
  return {
    status: res.status,
    headers: publicHeaders(res.headers),
    requestId: res.requestId,
    rateLimit: parseRateLimitInfo(res.headers, nowMs),
    method: 'GET',
    path: source.plan.path,
    attempts: source.attempts,
  };
}

/** Gives `data` its `withResponse()`; the response is read from `source` once the call is done. */
export function apiPromise<T>(data: Promise<T>, source: ResponseSource | undefined, now: () => number): ApiPromise<T> {
  const promise = data as ApiPromise<T>;
  promise.withResponse = () => data.then((value) => ({ data: value, response: responseOf(source as ResponseSource, now()) }));
  return promise;
}

/** A call refused before it was sent (a bad option): still an `ApiPromise`, rejecting. */
export function rejected<T>(error: unknown): ApiPromise<T> {
  return apiPromise<T>(Promise.reject(error), undefined, Date.now);
}
