/**
 * What every call returns: a real `Promise` of the data, with `withResponse()` for the
 * response around it (status, headers, request id, rate-limit state), as openai-node's
 * APIPromise offers. The response is kept by the call anyway; it is turned into an
 * `ApiResponse` only when asked for.
 */
import { SECRET_HEADERS } from '../contract/index.js';
import { type ApiKey, redactSecrets } from './api-key.js';
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
  /** The client's key (scrubbed from header values) and clock (for resets given as dates). */
  readonly rt: { readonly key: ApiKey; readonly clock: { now(): number } };
}

/** Never handed out, even though they are response headers: they can carry credentials. */
const HIDDEN_HEADERS: ReadonlySet<string> = new Set([...SECRET_HEADERS, 'proxy-authorization', 'set-cookie', 'cookie']);

/** A keyed call's headers were scrubbed by the attempt; a public call's are scrubbed here too. */
function publicHeaders(headers: Readonly<Record<string, string>>, key: ApiKey): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) if (!HIDDEN_HEADERS.has(name)) out[name] = redactSecrets(headers[name] as string, [key]);
  return out;
}

export function responseOf(source: ResponseSource): ApiResponse {
  const res = source.response;
  if (!res) throw new Error('internal: withResponse() on a call without a response');
  const { key, clock } = source.rt;
  return {
    status: res.status,
    headers: publicHeaders(res.headers, key),
    requestId: res.requestId === undefined ? undefined : redactSecrets(res.requestId, [key]),
    rateLimit: parseRateLimitInfo(res.headers, clock.now()),
    method: 'GET',
    path: source.plan.path,
    attempts: source.attempts,
  };
}

const SOURCE = Symbol('repair-service.call');

type Decorated<T> = ApiPromise<T> & { [SOURCE]?: ResponseSource | undefined };

/** One function for every promise: a closure per call would cost allocations on every call. */
function withResponse<T>(this: Decorated<T>): Promise<WithResponse<T>> {
  const source = this[SOURCE];
  return this.then((data) => ({ data, response: responseOf(source as ResponseSource) }));
}

/** Gives `data` its `withResponse()`; the response is read from `source` once the call is done. */
export function apiPromise<T>(data: Promise<T>, source: ResponseSource | undefined): ApiPromise<T> {
  const promise = data as Decorated<T>;
  promise.withResponse = withResponse;
  promise[SOURCE] = source;
  return promise;
}

/** A call refused before it was sent (a bad option): still an `ApiPromise`, rejecting. */
export function rejected<T>(error: unknown): ApiPromise<T> {
  return apiPromise<T>(Promise.reject(error), undefined);
}
