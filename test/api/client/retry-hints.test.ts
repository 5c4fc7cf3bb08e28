import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRateLimitInfo, parseRetryAfter, parseRetryHint } from '../../../api/client/retry.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delay-seconds, including 0 and decimals', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('7', NOW)).toBe(7000);
    expect(parseRetryAfter(' 1.5 ', NOW)).toBe(1500);
    expect(parseRetryAfter('0.0001', NOW)).toBe(1);
  });

  it('reads the three HTTP date forms relative to now, past dates as 0', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Saturday, 21-Nov-26 12:00:10 GMT', NOW)).toBe(10_000);
    expect(parseRetryAfter('Sat Nov 21 12:00:05 2026', NOW)).toBe(5_000);
    expect(parseRetryAfter('Fri, 20 Nov 2026 12:00:00 GMT', NOW)).toBe(0);
  });

  it('gives nothing for garbage instead of guessing', () => {
    for (const bad of ['', 'soon', '-5', '1e3', '0x10', '5 s', 'NaN', 'Infinity', 'Sat, 99 Nov 2026 12:00:00 GMT']) {
      expect(parseRetryAfter(bad, NOW), bad).toBeUndefined();
    }
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });

  it('keeps huge values finite', () => {
    const huge = parseRetryAfter('9'.repeat(400), NOW);
    expect(huge).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('every common rate-limit style (spec §8: headers not shown)', () => {
  it('reads the IETF single RateLimit field in both published shapes, with RateLimit-Policy for the limit', () => {
    expect(parseRetryHint({ ratelimit: 'limit=100, remaining=0, reset=30' }, NOW)).toEqual({ source: 'ratelimit', delayMs: 30_000 });
    expect(parseRetryHint({ ratelimit: '"default";r=0;t=12', 'ratelimit-policy': '"default";q=100;w=60' }, NOW)).toEqual({
      source: 'ratelimit',
      delayMs: 12_000,
    });
    expect(parseRateLimitInfo({ ratelimit: '"default";r=5;t=12', 'ratelimit-policy': '"default";q=100;w=60' }, NOW)).toEqual({
      limit: 100,
      remaining: 5,
      resetMs: 12_000,
    });
    expect(parseRetryHint({ ratelimit: '"default";rr=5;tt=9' }, NOW)).toBeUndefined();
  });

  it('reads X-RateLimit-Reset as seconds to wait, as epoch seconds or as epoch milliseconds, and the X- limit and remaining', () => {
    expect(parseRetryHint({ 'x-ratelimit-reset': '9' }, NOW)).toEqual({ source: 'x-ratelimit-reset', delayMs: 9000 });
    expect(parseRetryHint({ 'x-ratelimit-reset': String(NOW / 1000 + 20) }, NOW)).toEqual({ source: 'x-ratelimit-reset', delayMs: 20_000 });
    expect(parseRetryHint({ 'x-ratelimit-reset': String(NOW + 15_000) }, NOW)).toEqual({ source: 'x-ratelimit-reset', delayMs: 15_000 });
    expect(parseRateLimitInfo({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '9' }, NOW)).toEqual({
      limit: 60,
      remaining: 3,
      resetMs: 9000,
    });
  });

  it('reads Retry-After as an HTTP date alone', () => {
    expect(parseRetryHint({ 'retry-after': 'Sat, 21 Nov 2026 12:00:42 GMT' }, NOW)).toEqual({ source: 'retry-after', delayMs: 42_000 });
  });
});

describe('parseRetryHint', () => {
  it('prefers retry-after-ms, then Retry-After, then the reset headers', () => {
    expect(parseRetryHint({ 'retry-after-ms': '250', 'retry-after': '9' }, NOW)).toEqual({ source: 'retry-after-ms', delayMs: 250 });
    expect(parseRetryHint({ 'retry-after': '9', 'ratelimit-reset': '3' }, NOW)).toEqual({ source: 'retry-after', delayMs: 9000 });
    expect(parseRetryHint({ 'retry-after': 'garbage', 'ratelimit-reset': '3' }, NOW)).toEqual({ source: 'ratelimit-reset', delayMs: 3000 });
    expect(parseRetryHint({ 'x-ratelimit-reset': String(NOW / 1000 + 4) }, NOW)).toEqual({ source: 'x-ratelimit-reset', delayMs: 4000 });
    expect(parseRetryHint({}, NOW)).toBeUndefined();
  });

  it('reads a date or an epoch against the answer’s own Date, so a server clock 30 s ahead does not add 30 s', () => {
    const server = NOW + 30_000;
    const date = new Date(server).toUTCString();
    expect(parseRetryHint({ date, 'retry-after': new Date(server + 3000).toUTCString() }, NOW)).toEqual({
      source: 'retry-after',
      delayMs: 3000,
    });
    expect(parseRetryHint({ date, 'x-ratelimit-reset': String(server / 1000 + 4) }, NOW)).toEqual({
      source: 'x-ratelimit-reset',
      delayMs: 4000,
    });
    expect(parseRateLimitInfo({ date, 'x-ratelimit-reset': String(server / 1000 + 4) }, NOW).resetMs).toBe(4000);
    expect(parseRetryHint({ date: 'not a date', 'retry-after': new Date(NOW + 5000).toUTCString() }, NOW)).toEqual({
      source: 'retry-after',
      delayMs: 5000,
    });
  });

  it('reads the RateLimit trio', () => {
    expect(parseRateLimitInfo({ 'ratelimit-limit': '60', 'ratelimit-remaining': '0', 'ratelimit-reset': '12' }, NOW)).toEqual({
      limit: 60,
      remaining: 0,
      resetMs: 12_000,
    });
  });

  it('property: never throws, and any hint is a finite non-negative integer', () => {
    const headerValue = fc.oneof(
      fc.string(),
      fc.nat().map(String),
      fc.double().map(String),
      fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
    );
    fc.assert(
      fc.property(
        fc.record(
          { 'retry-after': headerValue, 'retry-after-ms': headerValue, 'ratelimit-reset': headerValue, 'x-ratelimit-reset': headerValue },
          { requiredKeys: [] },
        ),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        (headers, now) => {
          const hint = parseRetryHint(headers, now);
          if (hint === undefined) return true;
          return Number.isSafeInteger(hint.delayMs) && hint.delayMs >= 0;
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('property: an HTTP date hint is never earlier than the date', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 86_400 }), fc.integer({ min: 1_000_000_000_000, max: 3_000_000_000_000 }), (aheadS, nowMs) => {
        const now = Math.floor(nowMs / 1000) * 1000;
        const date = new Date(now + aheadS * 1000).toUTCString();
        return parseRetryAfter(date, now) === aheadS * 1000;
      }),
    );
  });
});
