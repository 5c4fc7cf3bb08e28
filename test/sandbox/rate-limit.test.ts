import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ERROR_CODES, RATE_LIMIT_HEADERS, authHeader, parseEnvelope } from '../../api/contract/index.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { createRateLimiter, parseRateLimit, rateLimitHeaders } from '../../sandbox/rate-limit.js';

describe('parseRateLimit', () => {
  it.each([
    ['600/1m', { limit: 600, windowMs: 60_000 }],
    ['5/1s', { limit: 5, windowMs: 1000 }],
    ['10/s', { limit: 10, windowMs: 1000 }],
    ['100/2h', { limit: 100, windowMs: 7_200_000 }],
    ['3/500ms', { limit: 3, windowMs: 500 }],
  ])('%s', (text, policy) => {
    expect(parseRateLimit(text)).toEqual({ ok: true, policy });
  });

  it('off disables it', () => {
    expect(parseRateLimit('off')).toEqual({ ok: true, policy: undefined });
  });

  it.each([
    ['5/xyz', /window "xyz"/],
    ['5/0s', /window "0s"/],
    ['x/1m', /request count "x"/],
    ['0/1m', /request count "0"/],
    ['5', /expected N\/WINDOW/],
    ['5/1m/2', /expected N\/WINDOW/],
  ])('rejects %s', (text, message) => {
    const parsed = parseRateLimit(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});

describe('rate limiter', () => {
  it('counts per key in a fixed window and rounds the reset up to whole seconds', () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000 });
    expect(limiter.hit('a', 0)).toEqual({ allowed: true, limit: 2, remaining: 1, windowMs: 60_000, resetAt: 60_000, resetSeconds: 60 });
    expect(limiter.hit('a', 1)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.hit('b', 2)).toMatchObject({ allowed: true });
    expect(limiter.hit('a', 58_500)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      windowMs: 60_000,
      resetAt: 60_000,
      resetSeconds: 2,
    });
    expect(limiter.hit('a', 60_000)).toMatchObject({ allowed: true, remaining: 1, resetAt: 120_000 });
  });

  it("the reference (ietf) headers of those verdicts are today's: the trio, plus Retry-After on a refusal", () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000 });
    expect(rateLimitHeaders('ietf', limiter.hit('a', 0))).toEqual({
      'ratelimit-limit': '2',
      'ratelimit-remaining': '1',
      'ratelimit-reset': '60',
    });
    limiter.hit('a', 1);
    expect(rateLimitHeaders('ietf', limiter.hit('a', 58_500))).toEqual({
      'ratelimit-limit': '2',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '2',
      'retry-after': '2',
    });
  });
});

describe('rate limiting in the sandbox', () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(() => sandbox?.close());

  async function get(s: RunningSandbox, alias: string | undefined, path = '/tenants/rowery-nowak/clients') {
    const h = alias ? authHeader('x-api-key', s.key(alias).key) : undefined;
    const res = await request(`${s.baseUrl}${path}`, { headers: h ? { [h.name]: h.value } : {} });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  }

  it('answers 429 rate_limited with Retry-After and RateLimit-* per key, on a pinned clock', async () => {
    let now = 1_000_000;
    sandbox = await startSandbox({ rateLimit: '2/10s', now: () => now });
    const first = await get(sandbox, 'nowak-test');
    expect(first.status).toBe(200);
    expect(first.headers[RATE_LIMIT_HEADERS.limit]).toBe('2');
    expect(first.headers[RATE_LIMIT_HEADERS.remaining]).toBe('1');
    expect((await get(sandbox, 'nowak-test')).status).toBe(200);
    now += 2500;
    const limited = await get(sandbox, 'nowak-test');
    expect(limited.status).toBe(429);
    expect(limited.headers[RATE_LIMIT_HEADERS.retryAfter]).toBe('8');
    expect(parseEnvelope(limited.text, { status: 429 })).toMatchObject({
      valid: true,
      envelope: { error: { code: ERROR_CODES.rateLimited } },
    });
    expect((await get(sandbox, 'kowalski-test', '/tenants/serwis-kowalski/clients')).status).toBe(200);
    now += 7500;
    expect((await get(sandbox, 'nowak-test')).status).toBe(200);
  });

  it('is off by default: no RateLimit headers, /docs and keyless requests never limited', async () => {
    sandbox = await startSandbox();
    expect((await get(sandbox, 'nowak-test')).headers[RATE_LIMIT_HEADERS.limit]).toBeUndefined();
    await sandbox.close();
    sandbox = await startSandbox({ rateLimit: '1/1h' });
    for (let i = 0; i < 3; i += 1) {
      expect((await get(sandbox, undefined, '/docs')).status).toBe(200);
      expect((await get(sandbox, undefined)).status).toBe(401);
    }
  });

  it('refuses a bad rate limit naming the window', async () => {
    await expect(startSandbox({ rateLimit: '5/xyz' })).rejects.toMatchObject({
      name: 'SandboxConfigError',
      option: 'rate-limit',
      message: expect.stringMatching(/"xyz"/),
    });
  });
});
