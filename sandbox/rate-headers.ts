/**
 * Rate-limit headers in each style a dialect may speak (spec §8: "rate-limit headers: not
 * shown"). Pure: the limiter's numbers (or a storm's wait) in, header fields out.
 */
import { RATE_LIMIT_HEADERS as H } from '../api/contract/index.js';
import { type RateLimitHeaderStyle } from '../api/contract/readings.js';
import type { RateVerdict } from './rate-limit.js';

type Fields = Record<string, string>;

/** The IETF draft's policy name; the sandbox has one policy per key. */
const POLICY = '"default"';

/** Rounded up, so a client that waits until then is never early. */
function epochSeconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

function httpDate(ms: number): string {
  return new Date(epochSeconds(ms) * 1000).toUTCString();
}

function wholeSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function xFields(v: RateVerdict, reset: number): Fields {
  return { [H.xLimit]: String(v.limit), [H.xRemaining]: String(v.remaining), [H.xReset]: String(reset) };
}

/** Headers of a keyed answer the limiter counted; a refused one (429) carries the style's wait hint too. */
export function rateLimitHeaders(style: RateLimitHeaderStyle, v: RateVerdict): Fields {
  const retryAfter: Fields = v.allowed ? {} : { [H.retryAfter]: String(v.resetSeconds) };
  switch (style) {
    case 'ietf':
      return { [H.limit]: String(v.limit), [H.remaining]: String(v.remaining), [H.reset]: String(v.resetSeconds), ...retryAfter };
    case 'ratelimit-field':
      return {
        [H.field]: `${POLICY};r=${v.remaining};t=${v.resetSeconds}`,
        [H.policy]: `${POLICY};q=${v.limit};w=${wholeSeconds(v.windowMs)}`,
        ...retryAfter,
      };
    case 'x-ratelimit-epoch':
      return xFields(v, epochSeconds(v.resetAt));
    case 'x-ratelimit-delta':
      return xFields(v, v.resetSeconds);
    case 'retry-after-date':
      return v.allowed ? {} : { [H.retryAfter]: httpDate(v.resetAt) };
    case 'none':
      return {};
  }
}

/**
 * The wait hint of a `rate-limit-storm` 429 in the style: the storm knows no limit or window,
 * only how long to wait (when it was given one), so it sends just the field that says so.
 */
export function stormHeaders(style: RateLimitHeaderStyle, waitSeconds: number | undefined, nowMs: number): Fields {
  if (waitSeconds === undefined) return {};
  const until = nowMs + waitSeconds * 1000;
  switch (style) {
    case 'ietf':
    case 'ratelimit-field':
      return { [H.retryAfter]: String(waitSeconds) };
    case 'x-ratelimit-epoch':
      return { [H.xRemaining]: '0', [H.xReset]: String(epochSeconds(until)) };
    case 'x-ratelimit-delta':
      return { [H.xRemaining]: '0', [H.xReset]: String(waitSeconds) };
    case 'retry-after-date':
      return { [H.retryAfter]: httpDate(until) };
    case 'none':
      return {};
  }
}
