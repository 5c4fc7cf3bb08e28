/**
 * Per-key fixed-window rate limiting. `N/WINDOW` is parsed into a discriminated result so the
 * CLI can name what is wrong; the limiter takes the clock as an argument so tests pin it.
 */
import { RATE_LIMIT_HEADERS } from '../api/contract/index.js';

export interface RateLimitPolicy {
  readonly limit: number;
  readonly windowMs: number;
}

export type RateLimitParse =
  | { readonly ok: true; readonly policy: RateLimitPolicy | undefined }
  | { readonly ok: false; readonly error: string };

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `N/WINDOW` (e.g. `600/1m`, `5/1s`, `100/h`) or `off`. */
export function parseRateLimit(text: string): RateLimitParse {
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

export type RateVerdict =
  | { readonly allowed: true; readonly headers: Readonly<Record<string, string>> }
  | { readonly allowed: false; readonly headers: Readonly<Record<string, string>> };

export interface RateLimiter {
  hit(keyId: string, now: number): RateVerdict;
}

export function createRateLimiter(policy: RateLimitPolicy): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(keyId, now) {
      let window = windows.get(keyId);
      if (!window || now - window.start >= policy.windowMs) {
        window = { start: now, count: 0 };
        windows.set(keyId, window);
      }
      window.count += 1;
      const resetSeconds = Math.max(1, Math.ceil((window.start + policy.windowMs - now) / 1000));
      const headers: Record<string, string> = {
        [RATE_LIMIT_HEADERS.limit]: String(policy.limit),
        [RATE_LIMIT_HEADERS.remaining]: String(Math.max(0, policy.limit - window.count)),
        [RATE_LIMIT_HEADERS.reset]: String(resetSeconds),
      };
      if (window.count <= policy.limit) return { allowed: true, headers };
      return { allowed: false, headers: { ...headers, [RATE_LIMIT_HEADERS.retryAfter]: String(resetSeconds) } };
    },
  };
}
