/**
 * A server's "come back later" hints, in every header style the spec's silence allows
 * (`RATE_LIMIT_HEADERS`). Pure: headers and the wall clock in, a delay out; garbage gives no
 * hint, never a guess, and a huge hint stays a finite number.
 */
import { RATE_LIMIT_HEADERS as H } from '../contract/index.js';

export interface RetryHint {
  readonly source: 'retry-after-ms' | 'retry-after' | 'ratelimit-reset' | 'ratelimit' | 'x-ratelimit-reset';
  /** How long the server asked to wait, from now; finite and >= 0. */
  readonly delayMs: number;
}

export interface RateLimitInfo {
  readonly limit?: number | undefined;
  readonly remaining?: number | undefined;
  /** Milliseconds until the window resets, from now. */
  readonly resetMs?: number | undefined;
}

type Headers = Readonly<Record<string, string | undefined>>;

const clampMs = (ms: number): number => (Number.isFinite(ms) ? Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.ceil(ms))) : Number.MAX_SAFE_INTEGER);
const decimal = (value: string | undefined): number | undefined => (value !== undefined && /^\s*\d+(?:\.\d+)?\s*$/.test(value) ? Number(value) : undefined);
const integer = (value: string | undefined): number | undefined => (Number.isSafeInteger(decimal(value)) ? decimal(value) : undefined);
/** RFC 9110 §5.6.7: IMF-fixdate, the obsolete RFC 850 form, and asctime (which names no zone: GMT). */
const HTTP_DATE = /^(?:[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/** `Retry-After` as delay-seconds (decimals tolerated) or an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const seconds = decimal(value);
  if (seconds !== undefined) return clampMs(seconds * 1000);
  const text = value?.trim() ?? '';
  if (!HTTP_DATE.test(text)) return undefined;
  const date = Date.parse(text.endsWith('GMT') ? text : `${text} GMT`);
  return Number.isNaN(date) ? undefined : clampMs(date - nowMs);
}

/** A reset: seconds to wait, or an epoch in seconds (above 1e9) or milliseconds (above 1e11), as gateways send. */
function parseReset(value: string | undefined, nowMs: number): number | undefined {
  const n = decimal(value);
  if (n === undefined) return undefined;
  return clampMs(n >= 1e11 ? n - nowMs : n >= 1e9 ? n * 1000 - nowMs : n * 1000);
}

/** The IETF draft's single `RateLimit` field in both published shapes: `limit=100, remaining=50, reset=30` and `"p";r=50;t=30` (limit in `RateLimit-Policy: "p";q=100`). */
function rateLimitField(headers: Headers): { limit?: number; remaining?: number; resetSeconds?: number } {
  const param = (text: string | undefined, ...names: string[]): number | undefined => {
    for (const name of names) {
      const match = text === undefined ? null : new RegExp(`(?:^|[;,\\s])${name}=(\\d+)(?=$|[;,\\s])`).exec(text);
      if (match) return Number(match[1]);
    }
    return undefined;
  };
  const field = headers[H.field];
  return { limit: param(field, 'limit') ?? param(headers[H.policy], 'q'), remaining: param(field, 'remaining', 'r'), resetSeconds: param(field, 'reset', 't') };
}

/**
 * An HTTP date or an epoch is a time on the server's clock: read against the answer's own `Date`
 * when it sent one, so a server clock running ahead does not stretch the wait by the difference.
 */
function serverNow(headers: Headers, localMs: number): number {
  const date = Date.parse(headers['date'] ?? '');
  return Number.isNaN(date) ? localMs : date;
}

/** The first usable hint, most specific first; `localMs` is our clock, used when the answer has no `Date`. */
export function parseRetryHint(headers: Headers, localMs: number): RetryHint | undefined {
  const nowMs = serverNow(headers, localMs);
  const field = rateLimitField(headers).resetSeconds;
  const candidates: Array<[RetryHint['source'], number | undefined]> = [
    ['retry-after-ms', decimal(headers[H.retryAfterMs])],
    ['retry-after', parseRetryAfter(headers[H.retryAfter], nowMs)],
    ['ratelimit-reset', parseReset(headers[H.reset], nowMs)],
    ['ratelimit', field === undefined ? undefined : field * 1000],
    ['x-ratelimit-reset', parseReset(headers[H.xReset], nowMs)],
  ];
  const found = candidates.find(([, ms]) => ms !== undefined);
  return found ? { source: found[0], delayMs: clampMs(found[1]!) } : undefined;
}

/** Limit, remaining and reset, from whichever style the server sent. */
export function parseRateLimitInfo(headers: Headers, localMs: number): RateLimitInfo {
  const nowMs = serverNow(headers, localMs);
  const field = rateLimitField(headers);
  return {
    limit: integer(headers[H.limit]) ?? field.limit ?? integer(headers[H.xLimit]),
    remaining: integer(headers[H.remaining]) ?? field.remaining ?? integer(headers[H.xRemaining]),
    resetMs: parseReset(headers[H.reset], nowMs) ?? (field.resetSeconds === undefined ? undefined : clampMs(field.resetSeconds * 1000)) ?? parseReset(headers[H.xReset], nowMs),
  };
}
