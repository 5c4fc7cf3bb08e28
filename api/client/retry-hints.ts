/**
 * Reading a server's "come back later" hints from response headers. Pure: headers and the
 * current wall-clock time in, a delay out. Never throws; garbage gives no hint, not a guess.
 */
import { RATE_LIMIT_HEADERS } from '../contract/index.js';

export type HintSource = 'retry-after-ms' | 'retry-after' | 'ratelimit-reset' | 'x-ratelimit-reset';

export interface RetryHint {
  readonly source: HintSource;
  /** How long the server asked us to wait, from `now`; always finite and >= 0. */
  readonly delayMs: number;
}

export interface RateLimitInfo {
  readonly limit?: number | undefined;
  readonly remaining?: number | undefined;
  /** Milliseconds until the window resets, from `now`. */
  readonly resetMs?: number | undefined;
}

type Headers = Readonly<Record<string, string | undefined>>;

/** A huge hint stays a number a caller can compare and print, never Infinity. */
const MAX_HINT_MS = Number.MAX_SAFE_INTEGER;
/** A reset value above this is an epoch timestamp (seconds), not a delta (GitHub style). */
const EPOCH_SECONDS_THRESHOLD = 1_000_000_000;

const DECIMAL = /^\d+(?:\.\d+)?$/;
// RFC 9110 §5.6.7: IMF-fixdate, the obsolete RFC 850 form, and asctime.
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC850_DATE = /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME_DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

function clampMs(ms: number): number {
  if (!Number.isFinite(ms)) return MAX_HINT_MS;
  return Math.min(MAX_HINT_MS, Math.max(0, Math.ceil(ms)));
}

function decimal(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return DECIMAL.test(trimmed) ? Number(trimmed) : undefined;
}

/** `Retry-After` as delay-seconds (decimals tolerated) or an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const seconds = decimal(value);
  if (seconds !== undefined) return clampMs(seconds * 1000);
  if (value === undefined) return undefined;
  const text = value.trim();
  let date: number;
  if (IMF_FIXDATE.test(text) || RFC850_DATE.test(text)) date = Date.parse(text);
  else if (ASCTIME_DATE.test(text)) date = Date.parse(`${text} GMT`);
  else return undefined;
  if (Number.isNaN(date)) return undefined;
  return clampMs(date - nowMs);
}

/** A reset header: delta seconds, or epoch seconds when the number is that large. */
export function parseResetHeader(value: string | undefined, nowMs: number): number | undefined {
  const seconds = decimal(value);
  if (seconds === undefined) return undefined;
  return seconds >= EPOCH_SECONDS_THRESHOLD ? clampMs(seconds * 1000 - nowMs) : clampMs(seconds * 1000);
}

/** The first usable hint, most specific first: `retry-after-ms`, `Retry-After`, then resets. */
export function parseRetryHint(headers: Headers, nowMs: number): RetryHint | undefined {
  const ms = decimal(headers[RATE_LIMIT_HEADERS.retryAfterMs]);
  if (ms !== undefined) return { source: 'retry-after-ms', delayMs: clampMs(ms) };
  const retryAfter = parseRetryAfter(headers[RATE_LIMIT_HEADERS.retryAfter], nowMs);
  if (retryAfter !== undefined) return { source: 'retry-after', delayMs: retryAfter };
  const reset = parseResetHeader(headers[RATE_LIMIT_HEADERS.reset], nowMs);
  if (reset !== undefined) return { source: 'ratelimit-reset', delayMs: reset };
  const xReset = parseResetHeader(headers[RATE_LIMIT_HEADERS.xReset], nowMs);
  if (xReset !== undefined) return { source: 'x-ratelimit-reset', delayMs: xReset };
  return undefined;
}

function integer(value: string | undefined): number | undefined {
  const n = decimal(value);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

/** The `RateLimit-*` trio, as far as the server sent it. */
export function parseRateLimitInfo(headers: Headers, nowMs: number): RateLimitInfo {
  return {
    limit: integer(headers[RATE_LIMIT_HEADERS.limit]),
    remaining: integer(headers[RATE_LIMIT_HEADERS.remaining]),
    resetMs: parseResetHeader(headers[RATE_LIMIT_HEADERS.reset] ?? headers[RATE_LIMIT_HEADERS.xReset], nowMs),
  };
}
