/** Headers on normal answers: the rate-limit style and the request-id header. */
import { describe, expect, it } from 'vitest';
import { discover, ok, refuse, referenceApi } from './fixtures.js';

const NOW_S = Math.floor(Date.now() / 1000);

describe('rateLimitHeaders', () => {
  it.each([
    [
      'ietf',
      { 'ratelimit-limit': '1000', 'ratelimit-remaining': '999', 'ratelimit-reset': '60' },
      'ratelimit-limit: 1000, ratelimit-remaining: 999, ratelimit-reset: 60',
    ],
    [
      'ratelimit-field',
      { ratelimit: '"default";r=5;t=30', 'ratelimit-policy': '"default";q=10;w=60' },
      'ratelimit: "default";r=5;t=30, ratelimit-policy: "default";q=10;w=60',
    ],
    ['ratelimit-field', { ratelimit: 'limit=10, remaining=5, reset=30' }, 'ratelimit: limit=10, remaining=5, reset=30'],
    [
      'x-ratelimit-epoch',
      { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(NOW_S + 60) },
      `x-ratelimit-limit: 60, x-ratelimit-remaining: 59, x-ratelimit-reset: ${NOW_S + 60}`,
    ],
    ['x-ratelimit-epoch', { 'x-ratelimit-reset': String(Date.now() + 60_000) }, `x-ratelimit-reset: `],
    [
      'x-ratelimit-delta',
      { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '42' },
      'x-ratelimit-limit: 60, x-ratelimit-remaining: 59, x-ratelimit-reset: 42',
    ],
  ])('%s from %j', async (style, limitHeaders, shown) => {
    const { report } = await discover(referenceApi({ key: 'tenant', limitHeaders }), { key: true });
    expect(report.findings.rateLimitHeaders).toMatchObject({
      kind: 'learned',
      reading: style,
      evidence: expect.stringContaining(`GET / with the key -> ${shown}`),
    });
  });

  it('X-RateLimit-* without a Reset: epoch or delta cannot be told', async () => {
    const { report } = await discover(
      referenceApi({ key: 'tenant', limitHeaders: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' } }),
      { key: true },
    );
    expect(report.findings.rateLimitHeaders).toEqual({
      kind: 'unknown',
      why: 'GET / with the key -> x-ratelimit-limit: 60, x-ratelimit-remaining: 59: X-RateLimit-* without a numeric Reset, so epoch or delta cannot be told',
    });
  });

  it('none on any answer of a valid key: none seen, saying what only a 429 would tell', async () => {
    const { report } = await discover(referenceApi({ key: 'tenant', limitHeaders: {} }), { key: true });
    expect(report.findings.rateLimitHeaders).toEqual({
      kind: 'learned',
      reading: 'none seen',
      evidence:
        "no rate-limit header on any of 7 answers and no 429 met: only a 429's headers tell retry-after-date (an HTTP-date Retry-After) from none (no header at all), " +
        'and discovery provokes none; the key is valid: GET / with the key -> HTTP 200',
    });
  });

  it('a 429 with only a Retry-After in seconds: waited out once, still limited, so none seen and the 429 named', async () => {
    const limited = refuse(429, 'rate_limited', { 'retry-after': '5' });
    const { report, calls } = await discover(referenceApi({ key: 'tenant', limitHeaders: {}, overrides: { 'platform:keys': limited } }), {
      key: true,
    });
    expect(report.findings.rateLimitHeaders).toEqual({
      kind: 'learned',
      reading: 'none seen',
      evidence:
        "no rate-limit header on any of 4 other answers; GET /platform/keys with the key -> HTTP 429 with retry-after: 5 only (seconds, the spec's own hint)",
    });
    // Asked twice (the wait the server named, then once more), then the run stopped.
    expect(calls.filter((c) => c.id === 'platform:keys')).toHaveLength(2);
    expect(report.requests).toMatchObject({ made: 6, stopped: { kind: 'rate_limited', why: 'still_limited' } });
  });

  it.each([
    [
      'retry-after-date',
      { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' },
      'GET /platform/keys with the key -> HTTP 429 with retry-after: Wed, 21 Oct 2015 07:28:00 GMT (an HTTP date) only',
    ],
    ['none', {}, 'GET /platform/keys with the key -> HTTP 429 without any rate-limit header, and none on 4 other answers'],
    [
      'ietf',
      { 'retry-after': '5', 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '5' },
      'GET /platform/keys with the key -> HTTP 429 with ratelimit-limit: 10',
    ],
  ])('headers seen only on a 429 still tell the style: %s (20.11)', async (style, headers, evidence) => {
    const limited = refuse(429, 'rate_limited', headers);
    const { report } = await discover(referenceApi({ key: 'tenant', limitHeaders: {}, overrides: { 'platform:keys': limited } }), {
      key: true,
    });
    expect(report.findings.rateLimitHeaders).toMatchObject({
      kind: 'learned',
      reading: style,
      evidence: expect.stringContaining(evidence),
    });
  });

  it('without a key and none on the keyless answers: needs a key', async () => {
    const { report } = await discover(referenceApi());
    expect(report.findings.rateLimitHeaders).toEqual({
      kind: 'unknown',
      why: 'needs a key (--key-env VAR, --key-file PATH or --key-stdin): none of the 4 answers without one carried a rate-limit header, and limits are usually counted per key',
    });
  });

  it('without a key, headers on a keyless answer still tell the style', async () => {
    const { report } = await discover(
      referenceApi({ overrides: { index: ok({}, { 'ratelimit-limit': '5', 'ratelimit-remaining': '4', 'ratelimit-reset': '1' }) } }),
    );
    expect(report.findings.rateLimitHeaders).toMatchObject({ kind: 'learned', reading: 'ietf' });
  });
});

describe('requestIdHeader', () => {
  it('x-request-id on every answer', async () => {
    const { report } = await discover(referenceApi());
    expect(report.findings.requestIdHeader).toEqual({
      kind: 'learned',
      reading: 'x-request-id',
      evidence: 'x-request-id on 4 of 4 answers',
    });
  });

  it('another *request-id* header', async () => {
    const { report } = await discover(referenceApi({ requestIdHeader: 'x-amzn-request-id' }));
    expect(report.findings.requestIdHeader).toEqual({
      kind: 'learned',
      reading: 'x-amzn-request-id',
      evidence: 'x-amzn-request-id on 4 of 4 answers',
    });
  });

  it('x-request-id wins over another where both are sent', async () => {
    const { report } = await discover(
      referenceApi({ requestIdHeader: 'request-id', overrides: { index: refuse(401, 'unauthorized', { 'x-request-id': 'r-1' }) } }),
    );
    expect(report.findings.requestIdHeader).toEqual({
      kind: 'learned',
      reading: 'x-request-id',
      evidence: 'x-request-id on 1 of 4 answers',
    });
  });

  it('none seen', async () => {
    const { report } = await discover(referenceApi({ requestIdHeader: null }));
    expect(report.findings.requestIdHeader).toEqual({
      kind: 'learned',
      reading: 'none seen',
      evidence: 'no *request-id* header on any of 4 answers',
    });
  });
});
