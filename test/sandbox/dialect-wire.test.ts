/**
 * The wire-level choices of a dialect over real HTTP, on a pinned clock: every rate-limit
 * header style (the limiter's answers and 429s, and the rate-limit-storm fault's 429s) and
 * plain 401/429 bodies.
 */
import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_HEADERS as H } from '../../api/contract/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { get, inDialect } from './dialect-helpers.js';

/** 2026-01-05 08:00:00 UTC: a real epoch, so epoch resets look like what clients meet. */
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const T0_S = T0 / 1000;
const CLIENTS = '/tenants/rowery-nowak/clients';

interface Exchange {
  readonly first: Awaited<ReturnType<typeof get>>;
  readonly limited: Awaited<ReturnType<typeof get>>;
}

/** Limit 2 per 10 s: one answer at T0, a second at T0+2.5 s, then the 429 (8 s left, rounded up). */
async function exchange(style: string, extra = ''): Promise<Exchange> {
  let now = T0;
  return inDialect(
    `rate-limit-headers=${style}${extra}`,
    async (s: RunningSandbox) => {
      const first = await get(s, CLIENTS, 'nowak-test');
      now += 2500;
      await get(s, CLIENTS, 'nowak-test');
      const limited = await get(s, CLIENTS, 'nowak-test');
      return { first, limited };
    },
    { rateLimit: '2/10s', now: () => now },
  );
}

describe('rate-limit-headers on the limiter', () => {
  it.each([
    [
      'ietf',
      { [H.limit]: '2', [H.remaining]: '1', [H.reset]: '10' },
      { [H.limit]: '2', [H.remaining]: '0', [H.reset]: '8', [H.retryAfter]: '8' },
    ],
    [
      'ratelimit-field',
      { [H.field]: '"default";r=1;t=10', [H.policy]: '"default";q=2;w=10' },
      { [H.field]: '"default";r=0;t=8', [H.policy]: '"default";q=2;w=10', [H.retryAfter]: '8' },
    ],
    [
      'x-ratelimit-epoch',
      { [H.xLimit]: '2', [H.xRemaining]: '1', [H.xReset]: String(T0_S + 10) },
      { [H.xLimit]: '2', [H.xRemaining]: '0', [H.xReset]: String(T0_S + 10) },
    ],
    [
      'x-ratelimit-delta',
      { [H.xLimit]: '2', [H.xRemaining]: '1', [H.xReset]: '10' },
      { [H.xLimit]: '2', [H.xRemaining]: '0', [H.xReset]: '8' },
    ],
    ['retry-after-date', {}, { [H.retryAfter]: 'Mon, 05 Jan 2026 08:00:10 GMT' }],
    ['none', {}, {}],
  ])('%s: exactly its headers on a keyed answer and on the 429', async (style, onAnswer, on429) => {
    const { first, limited } = await exchange(style);
    expect(first.status).toBe(200);
    expect(first.rateHeaders).toEqual(Object.keys(onAnswer).sort());
    for (const [name, value] of Object.entries(onAnswer)) expect(first.headers[name], name).toBe(value);
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(limited.rateHeaders).toEqual(Object.keys(on429).sort());
    for (const [name, value] of Object.entries(on429)) expect(limited.headers[name], name).toBe(value);
  });

  it('answers without a valid key are not counted and carry no rate-limit header in any style', async () => {
    for (const style of ['ietf', 'ratelimit-field', 'x-ratelimit-epoch']) {
      await inDialect(
        `rate-limit-headers=${style}`,
        async (s) => {
          expect((await get(s, '/docs')).rateHeaders).toEqual([]);
          expect((await get(s, CLIENTS)).rateHeaders).toEqual([]);
          expect((await get(s, CLIENTS, 'nowak-revoked-test')).rateHeaders).toEqual([]);
        },
        { rateLimit: '5/1m' },
      );
    }
  });
});

describe('rate-limit-headers on the rate-limit-storm fault', () => {
  it.each([
    ['ietf', { [H.retryAfter]: '7' }],
    ['ratelimit-field', { [H.retryAfter]: '7' }],
    ['x-ratelimit-epoch', { [H.xRemaining]: '0', [H.xReset]: String(T0_S + 7) }],
    ['x-ratelimit-delta', { [H.xRemaining]: '0', [H.xReset]: '7' }],
    ['retry-after-date', { [H.retryAfter]: 'Mon, 05 Jan 2026 08:00:07 GMT' }],
    ['none', {}],
  ])('%s: a storm 429 with a wait hint speaks the style; one without carries none', async (style, hint) => {
    await inDialect(
      `rate-limit-headers=${style}`,
      async (s) => {
        s.setFaults('rate-limit-storm:7');
        const storm = await get(s, CLIENTS, 'nowak-test');
        expect(storm).toMatchObject({ status: 429, code: 'rate_limited' });
        expect(storm.rateHeaders).toEqual(Object.keys(hint).sort());
        for (const [name, value] of Object.entries(hint)) expect(storm.headers[name], name).toBe(value);
        s.setFaults('rate-limit-storm');
        expect((await get(s, CLIENTS, 'nowak-test')).rateHeaders).toEqual([]);
      },
      { now: () => T0 },
    );
  });
});

describe('error bodies: the envelope in every dialect (spec §1), text only under the plain-error-bodies fault', () => {
  it.each(['snake-public', 'strict-hiding'])('%s (once plain-text) sends 401 and 429 as envelopes', async (preset) => {
    await inDialect(preset, async (s) => {
      const refused = await get(s, CLIENTS, 'nowak-revoked-test');
      expect(refused).toMatchObject({ contentType: 'application/json; charset=utf-8', code: 'unauthorized' });
      s.setFaults('rate-limit-storm:3');
      expect(await get(s, CLIENTS, 'nowak-test')).toMatchObject({
        status: 429,
        contentType: 'application/json; charset=utf-8',
        code: 'rate_limited',
      });
    });
  });

  it('the plain-error-bodies fault sends an error as its status text, and leaves a success an envelope', async () => {
    await inDialect('reference', async (s) => {
      s.setFaults('plain-error-bodies');
      expect(await get(s, CLIENTS, 'nowak-revoked-test')).toMatchObject({
        status: 401,
        contentType: 'text/plain; charset=utf-8',
        text: 'Unauthorized',
      });
      expect(await get(s, '/tenants/serwis-kowalski/clients', 'nowak-test')).toMatchObject({
        status: 403,
        contentType: 'text/plain; charset=utf-8',
        text: 'Forbidden',
      });
      expect(await get(s, CLIENTS, 'nowak-test')).toMatchObject({ status: 200, contentType: 'application/json; charset=utf-8' });
    });
  });
});
