import { afterEach, describe, expect, it } from 'vitest';
import {
  type ApiError,
  type ClientOptions,
  type RetryEvent,
  createClient,
  isApiError,
  isConnectionError,
  isRateLimitError,
  isServerError,
  isTimeoutError,
} from '../../../api/client/index.js';
import { BASE_URL, KEY, START, captureLogger, envelopeError, envelopeOk, hangingClock, instantClock, mockAgent, settledWithin } from './helpers.js';

const CLIENTS = '/api/v1/tenants/rowery-nowak/clients';
const agents: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

function setup(over: Partial<ClientOptions> = {}) {
  const { agent, pool } = mockAgent();
  agents.push(agent);
  const time = instantClock();
  const retries: RetryEvent[] = [];
  const { logger, lines } = captureLogger();
  const client = createClient({
    baseUrl: BASE_URL,
    apiKey: KEY,
    tenant: 'rowery-nowak',
    dispatcher: agent,
    clock: time.clock,
    random: () => 0.5,
    logger,
    onRetry: (e) => retries.push(e),
    ...over,
  });
  return { pool, client, time, retries, lines };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const rateLimited = (headers: Record<string, string>) => [429, envelopeError('rate_limited', 'Za dużo żądań'), { headers }] as const;

describe('client: 429 and Retry-After', () => {
  it.each([
    ['0', 0, 50],
    ['1.5', 1500, 1650],
    ['2', 2000, 2200],
  ])('Retry-After: %s waits at least the hint', async (value, min, max) => {
    const { pool, client, time } = setup();
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': value }));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk(['ok']));
    await expect(client.listClients()).resolves.toEqual(['ok']);
    expect(time.sleeps).toHaveLength(1);
    expect(time.sleeps[0]).toBeGreaterThanOrEqual(min);
    expect(time.sleeps[0]).toBeLessThanOrEqual(max);
  });

  it('Retry-After as an HTTP date waits until that date', async () => {
    const { pool, client, time } = setup();
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': new Date(START + 7000).toUTCString() }));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await client.listClients();
    expect(time.sleeps[0]).toBeGreaterThanOrEqual(7000);
  });

  it('retry-after-ms and RateLimit-Reset are honoured', async () => {
    const { pool, client, time } = setup();
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after-ms': '350' }));
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'ratelimit-reset': '4' }));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await client.listClients();
    expect(time.sleeps[0]).toBeGreaterThanOrEqual(350);
    expect(time.sleeps[1]).toBeGreaterThanOrEqual(4000);
  });

  it('garbage Retry-After falls back to 429 backoff', async () => {
    const { pool, client, time, retries } = setup();
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': 'soon-ish' }));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await client.listClients();
    expect(retries[0]?.basis).toBe('backoff');
    expect(time.sleeps[0]).toBeGreaterThanOrEqual(500);
  });

  it('a huge hint fails at once with retryAfterMs, limit and remaining, so a job can reschedule', async () => {
    const { pool, client, time } = setup();
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': '99999999999', 'ratelimit-limit': '60', 'ratelimit-remaining': '0' }));
    const error = await failure(client.listClients());
    expect(isRateLimitError(error)).toBe(true);
    if (!isRateLimitError(error)) return;
    expect(error).toMatchObject({ retryAfterMs: 99_999_999_999_000, limit: 60, remaining: 0, attempts: 1, stopReason: 'hint_above_max', retryable: true });
    expect(time.sleeps).toEqual([]);
  });

  it('a hint past the total deadline fails at once', async () => {
    const { pool, client } = setup({ totalTimeoutMs: 5000 });
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': '10' }));
    const error = await failure(client.listClients());
    expect(isRateLimitError(error) && error.stopReason).toBe('hint_past_deadline');
    expect(isRateLimitError(error) && error.retryAfterMs).toBe(10_000);
  });

  it('429s that never stop end as a RateLimitError after maxRetries, with the history', async () => {
    const { pool, client, retries } = setup({ maxRetries: 2 });
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': '1' })).times(3);
    const error = await failure(client.listClients());
    expect(isRateLimitError(error)).toBe(true);
    expect(error.attempts).toBe(3);
    expect(error.stopReason).toBe('retries_exhausted');
    expect(error.retryHistory.map((r) => r.outcome)).toEqual(['HTTP 429 rate_limited', 'HTTP 429 rate_limited']);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
  });
});

describe('client: 5xx, network errors and timeouts', () => {
  it.each([408, 500, 502, 503, 504])('retries %i, then succeeds', async (status) => {
    const { pool, client, retries } = setup();
    pool.intercept({ path: CLIENTS }).reply(status, status === 502 ? '<html>Bad Gateway</html>' : envelopeError('internal_error', 'Błąd'));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([1]));
    await expect(client.listClients()).resolves.toEqual([1]);
    expect(retries).toHaveLength(1);
  });

  it('5xx until retries run out -> ServerError, retryable, with per-attempt history', async () => {
    const { pool, client, time } = setup({ maxRetries: 3 });
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', 'Awaria')).times(4);
    const error = await failure(client.listClients());
    expect(isServerError(error)).toBe(true);
    expect(error).toMatchObject({ status: 503, code: 'internal_error', serverMessage: 'Awaria', attempts: 4, retryable: true, stopReason: 'retries_exhausted' });
    expect(error.retryHistory).toHaveLength(3);
    expect(time.sleeps[2]).toBeGreaterThan(time.sleeps[0] ?? Infinity);
  });

  it.each(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET'])('retries %s, and ends in a ConnectionError', async (code) => {
    const { pool, client } = setup({ maxRetries: 1 });
    pool.intercept({ path: CLIENTS }).replyWithError(Object.assign(new Error(`socket ${code}`), { code })).times(2);
    const error = await failure(client.listClients());
    expect(isConnectionError(error) && error.networkCode).toBe(code);
    expect(error.attempts).toBe(2);
  });

  it('a connect timeout is retried, then reported as TimeoutError phase connect', async () => {
    const { pool, client } = setup({ maxRetries: 1 });
    pool.intercept({ path: CLIENTS }).replyWithError(Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' })).times(2);
    const error = await failure(client.listClients());
    expect(isTimeoutError(error) && error.phase).toBe('connect');
    expect(error.attempts).toBe(2);
  });

  it('an onRetry hook that throws does not end the call', async () => {
    const { pool, client, lines } = setup({
      onRetry: () => {
        throw new Error('hook bug');
      },
    });
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', 'x'));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([7]));
    await expect(client.listClients()).resolves.toEqual([7]);
    expect(lines.some((l) => l.level === 'error' && l.message.includes('onRetry threw'))).toBe(true);
  });

  it('an attempt timeout is retried, then reported as TimeoutError scope attempt', async () => {
    const { pool, client } = setup({ attemptTimeoutMs: 30, maxRetries: 1 });
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([])).delay(2000).times(2);
    const error = await failure(client.listClients());
    expect(isTimeoutError(error) && error.scope).toBe('attempt');
    expect(error.attempts).toBe(2);
  });

  it('an attempt cut by the total deadline is a TimeoutError scope total, not retried', async () => {
    const { pool, client } = setup({ attemptTimeoutMs: 10_000, totalTimeoutMs: 150 });
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([])).delay(2000).times(2);
    const error = await failure(client.listClients());
    expect(isTimeoutError(error) && error.scope).toBe('total');
    expect(error.attempts).toBe(1);
  });

  it('a short totalTimeoutMs still sends the first attempt', async () => {
    const { pool, client } = setup({ totalTimeoutMs: 50 });
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([3]));
    await expect(client.listClients()).resolves.toEqual([3]);
  });

  it('the deadline stops retries before the last attempt would start too late', async () => {
    const { pool, client, time } = setup({ totalTimeoutMs: 1000, maxRetries: 50 });
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', 'x')).persist();
    const error = await failure(client.listClients());
    expect(error.stopReason).toBe('deadline');
    expect(time.now() - START).toBeLessThanOrEqual(1000);
  });
});

describe('client: abort', () => {
  it('an abort during a backoff sleep rejects at once with the caller’s reason', async () => {
    const hanging = hangingClock();
    const { pool, client } = setup({ clock: hanging.clock });
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', 'x'));
    const controller = new AbortController();
    const call = client.listClients({ signal: controller.signal });
    await hanging.slept;
    const reason = new Error('user cancelled');
    controller.abort(reason);
    const outcome = await settledWithin(call, 50);
    expect(outcome).toEqual({ state: 'rejected', reason });
  });

  it('an already aborted signal sends nothing', async () => {
    const { client } = setup();
    await expect(client.listClients({ signal: AbortSignal.abort('nope') })).rejects.toBe('nope');
  });

  it('an abort during the request rejects with the caller’s reason, not an ApiError', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([])).delay(5000);
    const controller = new AbortController();
    const call = client.listClients({ signal: controller.signal });
    setTimeout(() => controller.abort('stop'), 5);
    await expect(call).rejects.toBe('stop');
  });
});

describe('client: client-wide protection', () => {
  it('a 429 with a hint pauses new calls of the client until it passes', async () => {
    const { pool, client, time } = setup();
    const sentAt: Array<{ path: string; at: number }> = [];
    const log = (path: string, status: number, body: object, headers: Record<string, string> = {}) =>
      pool.intercept({ path }).reply(status, () => {
        sentAt.push({ path, at: time.now() });
        return body;
      }, { headers });
    log(CLIENTS, 429, envelopeError('rate_limited', 'x'), { 'retry-after': '3' });
    log(CLIENTS, 200, envelopeOk([]));
    await client.listClients();
    // Retry-After 3 s was seen; a new call right after the pause began would have waited too.
    const bikes = '/api/v1/tenants/rowery-nowak/bikes';
    log(bikes, 200, envelopeOk([]));
    await client.listBikes();
    expect(sentAt[1]!.at - sentAt[0]!.at).toBeGreaterThanOrEqual(3000);
    expect(sentAt[2]!.at).toBeGreaterThanOrEqual(sentAt[0]!.at + 3000);
  });

  it('a queued call waits for the gate before sending anything', async () => {
    const hanging = hangingClock();
    const { pool, client } = setup({ clock: hanging.clock });
    let requests = 0;
    pool.intercept({ path: CLIENTS }).reply(429, () => {
      requests += 1;
      return envelopeError('rate_limited', 'x');
    }, { headers: { 'retry-after': '5' } });
    const first = client.listClients();
    await hanging.slept;
    const second = client.listBikes();
    expect(await settledWithin(second, 30)).toEqual({ state: 'pending' });
    expect(requests).toBe(1);
    expect(hanging.sleeps).toHaveLength(2);
    expect(hanging.sleeps[1]).toBe(5000);
    void first.catch(() => undefined);
    void second.catch(() => undefined);
  });

  it('a pause longer than maxRetryAfterMs fails new calls at once, without sending', async () => {
    const { pool, client } = setup({ maxRetryAfterMs: 10_000 });
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': '120' }));
    await failure(client.listClients());
    const error = await failure(client.listBikes());
    expect(isRateLimitError(error) && error.retryAfterMs).toBe(120_000);
    expect(error.attempts).toBe(0);
  });

  it('the retry budget stops a retry storm across calls', async () => {
    const { pool, client } = setup({ retryBudget: { capacity: 2, refillPerSecond: 0 }, maxRetries: 5 });
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', 'x')).persist();
    const first = await failure(client.listClients());
    expect(first).toMatchObject({ attempts: 3, stopReason: 'retry_budget_exhausted', retryable: true });
    const second = await failure(client.listClients());
    expect(second.attempts).toBe(1);
  });

  it('retries are logged at info with the outcome, never the key', async () => {
    const { pool, client, lines } = setup();
    pool.intercept({ path: CLIENTS }).reply(502, '<html>bad gateway</html>');
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await client.listClients();
    const info = lines.filter((l) => l.level === 'info');
    expect(info).toHaveLength(1);
    expect(info[0]?.fields).toMatchObject({ outcome: 'HTTP 502', attempt: 1 });
  });
});
