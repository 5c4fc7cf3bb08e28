/**
 * Retries, waits, the 429 gate, deadlines and abort, through the client over a MockAgent. Time
 * is vitest's fake clock (setTimeout and Date), so waits of seconds take none; the delay the
 * client chose for each retry is read from its `info` log line and from `retryHistory`.
 */
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  type ApiError,
  type ClientOptions,
  createClient,
  isApiError,
  isConnectionError,
  isRateLimitError,
  isServerError,
  isTimeoutError,
  nextStep,
} from '../../../api/client/index.js';
import { BASE_URL, KEY, captureLogger, envelopeError, envelopeOk, mockAgent } from './helpers.js';

const CLIENTS = '/api/v1/tenants/rowery-nowak/clients';
const BIKES = '/api/v1/tenants/rowery-nowak/bikes';
const START = Date.UTC(2026, 10, 21, 12, 0, 0);
const agents: Array<{ close(): Promise<void> }> = [];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

function setup(over: Partial<ClientOptions> = {}) {
  const { agent, pool } = mockAgent();
  agents.push(agent);
  const { logger, lines } = captureLogger();
  const client = createClient({
    baseUrl: BASE_URL,
    apiKey: KEY,
    tenant: 'rowery-nowak',
    dispatcher: agent,
    logger,
    logLevel: 'info',
    ...over,
  });
  const retries = () =>
    lines
      .filter((l) => l.message.includes('; waiting '))
      .map((l) => l.fields as { delayMs: number; basis: string; attempt: number; outcome: string });
  return { pool, client, lines, retries };
}

/** Runs fake time forward, timer by timer, until `promise` settles. */
async function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let done = false;
  const outcome = promise.then(
    (value) => ((done = true), { ok: true as const, value }),
    (error: unknown) => ((done = true), { ok: false as const, error }),
  );
  for (let i = 0; i < 10_000 && !done; i += 1) await vi.advanceTimersToNextTimerAsync();
  return outcome;
}

/** Waits, without moving fake time, until `condition` holds (the MockAgent answers on real immediates). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

async function value<T>(promise: Promise<T>): Promise<T> {
  const r = await settle(promise);
  if (!r.ok) throw r.error;
  return r.value;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const r = await settle(promise);
  if (r.ok || !isApiError(r.error)) throw new Error(`expected an ApiError, got ${r.ok ? 'a value' : String(r.error)}`);
  return r.error;
}

const rateLimited = (headers: Record<string, string>) => [429, envelopeError('rate_limited', 'Za dużo żądań'), { headers }] as const;

describe('client: 429 and Retry-After', () => {
  it.each([
    ['0', 0, 50],
    ['1.5', 1500, 1650],
    ['2', 2000, 2200],
  ])('Retry-After: %s waits at least the hint', async (hint, min, max) => {
    const { pool, client, retries } = setup();
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': hint }));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk(['ok']));
    await expect(value(client.list('clients'))).resolves.toEqual(['ok']);
    expect(retries()).toHaveLength(1);
    expect(retries()[0]?.delayMs).toBeGreaterThanOrEqual(min);
    expect(retries()[0]?.delayMs).toBeLessThanOrEqual(max);
  });

  it('Retry-After as an HTTP date waits until that date', async () => {
    const { pool, client, retries } = setup();
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': new Date(START + 7000).toUTCString() }));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await value(client.list('clients'));
    expect(retries()[0]?.delayMs).toBeGreaterThanOrEqual(7000);
  });

  it('retry-after-ms and RateLimit-Reset are honoured', async () => {
    const { pool, client, retries } = setup();
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after-ms': '350' }));
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'ratelimit-reset': '4' }));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await value(client.list('clients'));
    expect(retries()[0]?.delayMs).toBeGreaterThanOrEqual(350);
    expect(retries()[1]?.delayMs).toBeGreaterThanOrEqual(4000);
  });

  it('garbage Retry-After falls back to 429 backoff', async () => {
    const { pool, client, retries } = setup();
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': 'soon-ish' }));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await value(client.list('clients'));
    expect(retries()[0]).toMatchObject({ basis: 'backoff' });
    expect(retries()[0]?.delayMs).toBeGreaterThanOrEqual(500);
  });

  it('a huge hint fails at once with retryAfterMs, limit and remaining, so a job can reschedule', async () => {
    const { pool, client, retries } = setup();
    pool
      .intercept({ path: CLIENTS })
      .reply(...rateLimited({ 'retry-after': '99999999999', 'ratelimit-limit': '60', 'ratelimit-remaining': '0' }));
    const error = await failure(client.list('clients'));
    expect(isRateLimitError(error)).toBe(true);
    expect(error).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 99_999_999_999_000,
      rateLimit: { limit: 60, remaining: 0 },
      attempts: 1,
      stopReason: 'hint_above_max',
      retryable: true,
    });
    expect(retries()).toEqual([]);
  });

  it('a hint past the total deadline fails at once', async () => {
    const { pool, client } = setup({ totalTimeoutMs: 5000 });
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': '10' }));
    const error = await failure(client.list('clients'));
    expect(error).toMatchObject({ stopReason: 'hint_past_deadline', retryAfterMs: 10_000 });
  });

  it('429s that never stop end as a RateLimitError after maxRetries, with the history', async () => {
    const { pool, client, retries } = setup({ maxRetries: 2 });
    pool
      .intercept({ path: CLIENTS })
      .reply(...rateLimited({ 'retry-after': '1' }))
      .times(3);
    const error = await failure(client.list('clients'));
    expect(isRateLimitError(error)).toBe(true);
    expect(error.attempts).toBe(3);
    expect(error.stopReason).toBe('retries_exhausted');
    expect(error.retryHistory.map((r) => r.outcome)).toEqual(['HTTP 429 rate_limited', 'HTTP 429 rate_limited']);
    expect(retries().map((r) => r.attempt)).toEqual([1, 2]);
  });
});

describe('RateLimitError always carries its wait', () => {
  it('a 429 without a hint: the 429 policy’s next backoff, basis backoff, and what the headers said', async () => {
    const { pool, client } = setup({ maxRetries: 0 });
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'ratelimit-limit': '60' }));
    const error = await failure(client.list('clients'));
    if (!isRateLimitError(error)) throw new Error(`expected a RateLimitError, got ${error.kind}`);
    expect(error).toMatchObject({ retryAfterMs: 1000, retryAfterBasis: 'backoff', rateLimit: { limit: 60 }, status: 429 });
    expect(nextStep(error)).toMatchObject({ action: 'retry after 1 s, at a lower rate', afterMs: 1000 });
  });

  it('switch (error.kind) narrows to the class: each kind’s fields are typed as present', () => {
    const fieldsOf = (error: unknown): number | string | undefined => {
      if (!isApiError(error)) return undefined;
      switch (error.kind) {
        case 'rate_limited':
          return error.retryAfterMs + (error.rateLimit.remaining ?? 0);
        case 'timeout':
          return error.timeoutMs + error.elapsedMs;
        case 'connection_error':
          return error.networkCode;
        case 'tenant_mismatch':
          return error.code.length + error.status;
        case 'parse_failed':
          return error.issue;
        default:
          return error.status;
      }
    };
    expectTypeOf(fieldsOf).returns.toEqualTypeOf<number | string | undefined>();
    expect(fieldsOf(new Error('x'))).toBeUndefined();
  });
});

describe('client: 5xx, network errors and timeouts', () => {
  it.each([408, 500, 502, 503, 504])('retries %i, then succeeds', async (status) => {
    const { pool, client, retries } = setup();
    pool.intercept({ path: CLIENTS }).reply(status, status === 502 ? '<html>Bad Gateway</html>' : envelopeError('internal_error', 'Błąd'));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([1]));
    await expect(value(client.list('clients'))).resolves.toEqual([1]);
    expect(retries()).toHaveLength(1);
  });

  it('5xx until retries run out -> ServerError, retryable, with per-attempt history and growing backoff', async () => {
    const { pool, client } = setup({ maxRetries: 3 });
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', 'Awaria')).times(4);
    const error = await failure(client.list('clients'));
    expect(isServerError(error)).toBe(true);
    expect(error).toMatchObject({
      kind: 'server_error',
      status: 503,
      code: 'internal_error',
      serverMessage: 'Awaria',
      attempts: 4,
      retryable: true,
      stopReason: 'retries_exhausted',
    });
    expect(error.retryHistory).toHaveLength(3);
    expect(error.retryHistory[2]!.delayMs).toBeGreaterThan(error.retryHistory[0]!.delayMs);
  });

  it.each(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET'])(
    'retries %s, and ends in a ConnectionError',
    async (code) => {
      const { pool, client } = setup({ maxRetries: 1 });
      pool
        .intercept({ path: CLIENTS })
        .replyWithError(Object.assign(new Error(`socket ${code}`), { code }))
        .times(2);
      const error = await failure(client.list('clients'));
      expect(isConnectionError(error) && error.networkCode).toBe(code);
      expect(error).toMatchObject({ kind: 'connection_error', attempts: 2 });
    },
  );

  it('a TLS failure is a ConnectionError of kind tls_error, not retried', async () => {
    const { pool, client } = setup({ maxRetries: 3 });
    pool.intercept({ path: CLIENTS }).replyWithError(Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }));
    const error = await failure(client.list('clients'));
    expect(error).toMatchObject({ name: 'ConnectionError', kind: 'tls_error', networkCode: 'CERT_HAS_EXPIRED', attempts: 1 });
  });

  it('a connect timeout is retried, then reported as TimeoutError phase connect', async () => {
    const { pool, client } = setup({ maxRetries: 1 });
    pool
      .intercept({ path: CLIENTS })
      .replyWithError(Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }))
      .times(2);
    const error = await failure(client.list('clients'));
    expect(isTimeoutError(error) && error.phase).toBe('connect');
    expect(error.attempts).toBe(2);
  });

  it('an attempt timeout is retried, then reported as TimeoutError scope attempt', async () => {
    const { pool, client } = setup({ attemptTimeoutMs: 30, maxRetries: 1 });
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([])).delay(2000).times(2);
    const error = await failure(client.list('clients'));
    expect(error).toMatchObject({ kind: 'timeout', scope: 'attempt', phase: 'headers', attempts: 2 });
    expect(error.message).toContain('headers timeout: the 30 ms budget of one attempt (attemptTimeoutMs) ran out');
  });

  it('an attempt cut by the total deadline is a TimeoutError scope total, not retried', async () => {
    const { pool, client } = setup({ attemptTimeoutMs: 10_000, totalTimeoutMs: 150 });
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([])).delay(2000).times(2);
    const error = await failure(client.list('clients'));
    expect(error).toMatchObject({ kind: 'timeout', scope: 'total', attempts: 1, timeoutMs: 150 });
    expect(error.message).toMatch(/total timeout: 15\d ms of the 150 ms budget \(totalTimeoutMs\) used by 1 attempt and 0\.0 s of waits/);
  });

  it('a short totalTimeoutMs still sends the first attempt', async () => {
    const { pool, client } = setup({ totalTimeoutMs: 50 });
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([3]));
    await expect(value(client.list('clients'))).resolves.toEqual([3]);
  });

  it('the deadline stops retries before the last attempt would start too late', async () => {
    const { pool, client } = setup({ totalTimeoutMs: 1000, maxRetries: 50 });
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', 'x')).persist();
    const error = await failure(client.list('clients'));
    expect(error.stopReason).toBe('deadline');
    expect(Date.now() - START).toBeLessThanOrEqual(1000);
  });
});

describe('client: abort', () => {
  it('an abort during a backoff wait rejects at once with the caller’s reason', async () => {
    const { pool, client, retries } = setup();
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', 'x'));
    const controller = new AbortController();
    const call = client.list('clients', { signal: controller.signal });
    await until(() => retries().length === 1);
    const reason = new Error('user cancelled');
    controller.abort(reason);
    await expect(settle(call)).resolves.toEqual({ ok: false, error: reason });
  });

  it('an already aborted signal sends nothing', async () => {
    const { client } = setup();
    await expect(client.list('clients', { signal: AbortSignal.abort('nope') })).rejects.toBe('nope');
  });

  it('an abort during the request rejects with the caller’s reason, not an ApiError', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([])).delay(5000);
    const controller = new AbortController();
    const call = client.list('clients', { signal: controller.signal });
    setTimeout(() => controller.abort('stop'), 5);
    await expect(settle(call)).resolves.toEqual({ ok: false, error: 'stop' });
  });
});

describe('client: one 429 pauses the whole client', () => {
  it('a 429 with a hint pauses new calls of the client until it passes', async () => {
    const { pool, client, retries } = setup();
    const sentAt: number[] = [];
    const answer = (path: string, status: number, body: object, headers: Record<string, string> = {}) =>
      pool.intercept({ path }).reply(status, () => (sentAt.push(Date.now()), body), { headers });
    answer(CLIENTS, 429, envelopeError('rate_limited', 'x'), { 'retry-after': '3' });
    answer(CLIENTS, 200, envelopeOk([]));
    answer(BIKES, 200, envelopeOk([]));
    const first = client.list('clients');
    await until(() => retries().length === 1);
    const second = client.list('bikes');
    await settle(Promise.all([first, second]));
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(3000);
    expect(sentAt[2]!).toBeGreaterThanOrEqual(sentAt[0]! + 3000);
  });

  it('a pause longer than the call has left fails it at once, without sending', async () => {
    const { pool, client } = setup({ maxRetryAfterMs: 10_000 });
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': '8' }));
    await failure(client.list('clients', { maxRetries: 0 }));
    const error = await failure(client.list('bikes', { totalTimeoutMs: 5_000 }));
    expect(error).toMatchObject({ kind: 'rate_limited', attempts: 0, stopReason: 'gate_wait_too_long' });
  });

  it('a hint above maxRetryAfterMs fails its own call (hint_above_max) and pauses no other', async () => {
    const { pool, client } = setup({ maxRetryAfterMs: 10_000 });
    pool.intercept({ path: CLIENTS }).reply(...rateLimited({ 'retry-after': '120' }));
    pool.intercept({ path: BIKES }).reply(200, envelopeOk([]));
    expect(await failure(client.list('clients'))).toMatchObject({ stopReason: 'hint_above_max', retryAfterMs: 120_000 });
    expect(await value(client.list('bikes'))).toEqual([]);
  });

  it('retries are logged at info with the outcome, never the key', async () => {
    const { pool, client, lines } = setup();
    pool.intercept({ path: CLIENTS }).reply(502, '<html>bad gateway</html>');
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await value(client.list('clients'));
    const info = lines.filter((l) => l.level === 'info');
    expect(info).toHaveLength(1);
    expect(info[0]?.fields).toMatchObject({ outcome: 'HTTP 502', attempt: 1 });
    expect(JSON.stringify(lines)).not.toContain(KEY.reveal());
  });
});
