/**
 * Per-key fixed-window rate limiting, and the headers each dialect style writes from its numbers
 * (spec §8: "rate-limit headers: not shown"). `N/WINDOW` is parsed into a discriminated result so
 * the CLI can name what is wrong; the limiter takes the clock as an argument so tests pin it.
 */
import { RATE_LIMIT_HEADERS as H } from '../api/contract/index.js';
import { type RateLimitHeaderStyle } from '../api/contract/readings.js';
import { RATE_LIMIT_STYLE_FIELDS } from '../api/contract/server/index.js';

export interface RateLimitPolicy {
  readonly limit: number;
  readonly windowMs: number;
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `N/WINDOW` (e.g. `600/1m`, `5/1s`, `100/h`) or `off`. */
export function parseRateLimit(text: string): { ok: true; policy: RateLimitPolicy | undefined } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (trimmed === 'off') return { ok: true, policy: undefined };
  const [countText, windowText, ...rest] = trimmed.split('/');
  if (countText === undefined || windowText === undefined || rest.length > 0) {
    return { ok: false, error: `expected N/WINDOW (e.g. 600/1m) or "off", got "${text}"` };
  }
  if (!/^\d+$/.test(countText) || Number(countText) < 1 || Number(countText) > 1_000_000_000) {
    return { ok: false, error: `request count "${countText}" must be a whole number from 1` };
  }
  const match = /^(\d*)(ms|s|m|h)$/.exec(windowText);
  const amount = match ? (match[1] === '' ? 1 : Number(match[1])) : 0;
  if (!match || amount < 1) {
    return { ok: false, error: `window "${windowText}" must be a duration such as 1s, 10s, 1m or 1h` };
  }
  return { ok: true, policy: { limit: Number(countText), windowMs: amount * (UNIT_MS[match[2] ?? 's'] ?? 1000) } };
}

/** One request counted against a key's window: the numbers every header style is written from. */
export interface RateVerdict {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  readonly windowMs: number;
  /** Epoch milliseconds when the window ends. */
  readonly resetAt: number;
  /** Whole seconds until then, rounded up so a client waiting them is never early; at least 1. */
  readonly resetSeconds: number;
}

export function createRateLimiter(policy: RateLimitPolicy): { hit(keyId: string, now: number): RateVerdict } {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(keyId, now) {
      let window = windows.get(keyId);
      if (!window || now - window.start >= policy.windowMs) {
        window = { start: now, count: 0 };
        windows.set(keyId, window);
      }
      window.count += 1;
      const resetAt = window.start + policy.windowMs;
      return {
        allowed: window.count <= policy.limit,
        limit: policy.limit,
        remaining: Math.max(0, policy.limit - window.count),
        windowMs: policy.windowMs,
        resetAt,
        resetSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
      };
    },
  };
}

type Fields = Record<string, string>;

/** The IETF draft's policy name; the sandbox has one policy per key. */
const POLICY = '"default"';

/** Rounded up, so a client that waits until then is never early. */
const epochSeconds = (ms: number): number => Math.ceil(ms / 1000);
const httpDate = (ms: number): string => new Date(epochSeconds(ms) * 1000).toUTCString();

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
        [H.policy]: `${POLICY};q=${v.limit};w=${Math.max(1, Math.ceil(v.windowMs / 1000))}`,
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
 * only how long to wait (when it was given one), so it sends just the fields that say so: the
 * style's 429 fields, or for a style without any its remaining count and reset.
 */
export function stormHeaders(style: RateLimitHeaderStyle, waitSeconds: number | undefined, nowMs: number): Fields {
  if (waitSeconds === undefined) return {};
  const resetAt = nowMs + waitSeconds * 1000;
  const all = rateLimitHeaders(style, { allowed: false, limit: 0, remaining: 0, windowMs: 0, resetAt, resetSeconds: waitSeconds });
  const { on429 } = RATE_LIMIT_STYLE_FIELDS[style];
  const sent: readonly string[] = on429.length > 0 ? on429 : [H.xRemaining, H.xReset];
  return Object.fromEntries(Object.entries(all).filter(([name]) => sent.includes(name)));
}
