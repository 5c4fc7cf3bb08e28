/**
 * Reading a server's "come back later" hints from response headers. Pure: headers and the
 * current wall-clock time in, a delay out. Never throws; garbage gives no hint, not a guess.
 */
import { RATE_LIMIT_HEADERS } from '../contract/index.js';

export type HintSource = 'retry-after-ms' | 'retry-after' | 'ratelimit-reset' | 'ratelimit' | 'x-ratelimit-reset';

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
/** ...and above this, an epoch in milliseconds (some gateways send Date.now()). */
const EPOCH_MILLIS_THRESHOLD = 100_000_000_000;

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

/** A reset header: delta seconds, or an epoch in seconds or milliseconds when the number is that large. */
export function parseResetHeader(value: string | undefined, nowMs: number): number | undefined {
  const n = decimal(value);
  if (n === undefined) return undefined;
  if (n >= EPOCH_MILLIS_THRESHOLD) return clampMs(n - nowMs);
  return n >= EPOCH_SECONDS_THRESHOLD ? clampMs(n * 1000 - nowMs) : clampMs(n * 1000);
}

/**
 * The IETF draft's single structured field, in both of its published shapes:
 * `limit=100, remaining=50, reset=30` (drafts up to 06) and `"default";r=50;t=30` (07 on,
 * with the limit in `RateLimit-Policy: "default";q=100;w=60`). Numbers only; the rest is ignored.
 */
export function parseRateLimitField(field: string | undefined, policy: string | undefined): { limit?: number; remaining?: number; resetSeconds?: number } {
  const param = (text: string | undefined, ...names: string[]): number | undefined => {
    if (text === undefined) return undefined;
    for (const name of names) {
      const match = new RegExp(`(?:^|[;,\\s])${name}=(\\d+)(?=$|[;,\\s])`).exec(text);
      if (match?.[1] !== undefined) return Number(match[1]);
    }
    return undefined;
  };
  return { limit: param(field, 'limit') ?? param(policy, 'q'), remaining: param(field, 'remaining', 'r'), resetSeconds: param(field, 'reset', 't') };
}

/** The first usable hint, most specific first: `retry-after-ms`, `Retry-After`, then resets. */
export function parseRetryHint(headers: Headers, nowMs: number): RetryHint | undefined {
  const ms = decimal(headers[RATE_LIMIT_HEADERS.retryAfterMs]);
  if (ms !== undefined) return { source: 'retry-after-ms', delayMs: clampMs(ms) };
  const retryAfter = parseRetryAfter(headers[RATE_LIMIT_HEADERS.retryAfter], nowMs);
  if (retryAfter !== undefined) return { source: 'retry-after', delayMs: retryAfter };
  const reset = parseResetHeader(headers[RATE_LIMIT_HEADERS.reset], nowMs);
  if (reset !== undefined) return { source: 'ratelimit-reset', delayMs: reset };
  const field = parseRateLimitField(headers[RATE_LIMIT_HEADERS.field], headers[RATE_LIMIT_HEADERS.policy]).resetSeconds;
  if (field !== undefined) return { source: 'ratelimit', delayMs: clampMs(field * 1000) };
  const xReset = parseResetHeader(headers[RATE_LIMIT_HEADERS.xReset], nowMs);
  if (xReset !== undefined) return { source: 'x-ratelimit-reset', delayMs: xReset };
  return undefined;
}

function integer(value: string | undefined): number | undefined {
  const n = decimal(value);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

/** Limit, remaining and reset, from whichever style the server sent (see RATE_LIMIT_HEADERS). */
export function parseRateLimitInfo(headers: Headers, nowMs: number): RateLimitInfo {
  const field = parseRateLimitField(headers[RATE_LIMIT_HEADERS.field], headers[RATE_LIMIT_HEADERS.policy]);
  return {
    limit: integer(headers[RATE_LIMIT_HEADERS.limit]) ?? field.limit ?? integer(headers[RATE_LIMIT_HEADERS.xLimit]),
    remaining: integer(headers[RATE_LIMIT_HEADERS.remaining]) ?? field.remaining ?? integer(headers[RATE_LIMIT_HEADERS.xRemaining]),
    resetMs:
      parseResetHeader(headers[RATE_LIMIT_HEADERS.reset], nowMs) ??
      (field.resetSeconds === undefined ? undefined : clampMs(field.resetSeconds * 1000)) ??
      parseResetHeader(headers[RATE_LIMIT_HEADERS.xReset], nowMs),
  };
}
