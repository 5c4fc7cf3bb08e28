/**
 * Per-key fixed-window rate limiting. `N/WINDOW` is parsed into a discriminated result so the
 * CLI can name what is wrong; the limiter takes the clock as an argument so tests pin it. It
 * only counts: how the numbers go on the wire is the dialect's (rate-headers.ts).
 */
export interface RateLimitPolicy {
  readonly limit: number;
  readonly windowMs: number;
}

export type RateLimitParse =
  { readonly ok: true; readonly policy: RateLimitPolicy | undefined } | { readonly ok: false; readonly error: string };

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
