import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_POLICY, type RetryInput, type RetryOutcome, createRateLimitGate, decideRetry } from '../../../api/client/retry.js';

const NOW = 1_800_000_000_000;
const status = (s: number, headers: Record<string, string> = {}): RetryOutcome => ({ kind: 'status', status: s, headers });
const input = (outcome: RetryOutcome, over: Partial<RetryInput> = {}): RetryInput => ({
  attempt: 1,
  maxRetries: 3,
  outcome,
  now: NOW,
  random: 0.5,
  deadline: NOW + 60_000,
  maxRetryAfterMs: 30_000,
  minAttemptWindowMs: 100,
  ...over,
});

describe('decideRetry', () => {
  it('retries 408, 429, 500, 502, 503, 504 and never 3xx/400/401/403/404 or 2xx', () => {
    for (const s of [408, 429, 500, 502, 503, 504]) expect(decideRetry(input(status(s))).retry, String(s)).toBe(true);
    for (const s of [200, 301, 302, 400, 401, 403, 404, 405])
      expect(decideRetry(input(status(s)))).toMatchObject({ retry: false, reason: 'not_retryable' });
  });

  it('retries network failures and attempt timeouts, not TLS or oversized bodies', () => {
    const failure = (f: Extract<RetryOutcome, { kind: 'failure' }>['failure']): RetryOutcome => ({ kind: 'failure', failure: f });
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET']) {
      expect(decideRetry(input(failure({ kind: 'connection', code, message: code }))).retry, code).toBe(true);
    }
    expect(decideRetry(input(failure({ kind: 'timeout', phase: 'connect', message: 't' }))).retry).toBe(true);
    expect(decideRetry(input(failure({ kind: 'timeout', phase: 'body', message: 't' }))).retry).toBe(true);
    expect(decideRetry(input(failure({ kind: 'tls', code: 'CERT_HAS_EXPIRED', message: 'x' }))).retry).toBe(false);
    expect(decideRetry(input(failure({ kind: 'body_too_large', limitBytes: 1, message: 'x' }))).retry).toBe(false);
  });

  it('stops after maxRetries', () => {
    expect(decideRetry(input(status(503), { attempt: 3 })).retry).toBe(true);
    expect(decideRetry(input(status(503), { attempt: 4 }))).toMatchObject({ retry: false, reason: 'retries_exhausted' });
  });

  it('waits at least the hint, plus a little jitter', () => {
    const d = decideRetry(input(status(429, { 'retry-after': '2' }), { random: 0.99 }));
    expect(d).toMatchObject({ retry: true, basis: 'hint' });
    if (d.retry) expect(d.delayMs).toBeGreaterThanOrEqual(2000);
    if (d.retry) expect(d.delayMs).toBeLessThanOrEqual(2200);
    const zero = decideRetry(input(status(429, { 'retry-after': '0' }), { random: 0 }));
    expect(zero).toMatchObject({ retry: true, delayMs: 0, basis: 'hint' });
  });

  it('fails at once on a hint above maxRetryAfterMs or past the deadline', () => {
    expect(decideRetry(input(status(429, { 'retry-after': '31' })))).toMatchObject({
      retry: false,
      reason: 'hint_above_max',
      hint: { delayMs: 31_000 },
    });
    expect(decideRetry(input(status(429, { 'retry-after': '20' }), { deadline: NOW + 10_000 }))).toMatchObject({
      retry: false,
      reason: 'hint_past_deadline',
    });
  });

  it('backs off harder for 429 without a hint than for 5xx', () => {
    const d429 = decideRetry(input(status(429), { random: 0 }));
    const d503 = decideRetry(input(status(503), { random: 0 }));
    if (!d429.retry || !d503.retry) throw new Error('expected retries');
    expect(d429.delayMs).toBeGreaterThan(d503.delayMs);
    const later = decideRetry(input(status(503), { random: 0, attempt: 3 }));
    if (!later.retry) throw new Error('expected retry');
    expect(later.delayMs).toBeGreaterThan(d503.delayMs);
  });

  it('does not spend the last attempt at the deadline', () => {
    expect(decideRetry(input(status(503), { deadline: NOW + 50 }))).toMatchObject({ retry: false, reason: 'deadline' });
    // The first 5xx backoff is 125-250 ms: it fits with 400 ms left, not with 300.
    expect(decideRetry(input(status(503), { deadline: NOW + 400, random: 0.99 }))).toMatchObject({ retry: true, delayMs: 249 });
    expect(decideRetry(input(status(503), { deadline: NOW + 300, random: 0.99 }))).toMatchObject({ retry: false, reason: 'deadline' });
  });

  it('property: never throws, never earlier than the hint, never past the deadline', () => {
    const headerValue = fc.oneof(
      fc.string(),
      fc.nat({ max: 100_000 }).map(String),
      fc.double().map(String),
      fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
    );
    const outcome: fc.Arbitrary<RetryOutcome> = fc.oneof(
      fc.record({
        kind: fc.constant('status' as const),
        status: fc.oneof(fc.constantFrom(200, 301, 401, 403, 408, 429, 500, 502, 503, 504), fc.integer({ min: 100, max: 599 })),
        headers: fc.record(
          { 'retry-after': headerValue, 'retry-after-ms': headerValue, 'ratelimit-reset': headerValue },
          { requiredKeys: [] },
        ),
      }),
      fc.record({
        kind: fc.constant('failure' as const),
        failure: fc.record({
          kind: fc.constant('connection' as const),
          code: fc.constantFrom('ECONNRESET', 'EPIPE', 'EWHATEVER'),
          message: fc.string(),
        }),
      }),
    );
    fc.assert(
      fc.property(
        outcome,
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: -1000, max: 120_000 }),
        fc.oneof(fc.double(), fc.double({ min: 0, max: 1, maxExcluded: true })),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 0, max: 1000 }),
        (o, attempt, maxRetries, now, budget, random, maxRetryAfterMs, window) => {
          const d = decideRetry({
            outcome: o,
            attempt,
            maxRetries,
            now,
            random,
            deadline: now + budget,
            maxRetryAfterMs,
            minAttemptWindowMs: window,
          });
          if (!d.retry) return true;
          if (!(Number.isFinite(d.delayMs) && d.delayMs >= 0)) return false;
          if (now + d.delayMs + window > now + budget) return false;
          if (d.hint && d.delayMs < d.hint.delayMs) return false;
          return attempt <= maxRetries;
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('the client-wide 429 gate', () => {
  const hint = { source: 'retry-after' as const, delayMs: 1000 };
  it('keeps the longest pause and lifts it when it has passed', () => {
    const gate = createRateLimitGate();
    gate.pause(1000, hint);
    gate.pause(500, hint);
    expect(gate.current(1000)?.until).toBe(2000);
    expect(gate.current(2000)).toBeUndefined();
  });

  it('one absurd hint pauses the gate for RATE_LIMIT_POLICY.maxHoldMs at most, not for the life of the process', () => {
    const gate = createRateLimitGate();
    gate.pause(0, { source: 'retry-after', delayMs: 1e18 });
    expect(gate.current(0)?.until).toBe(RATE_LIMIT_POLICY.maxHoldMs);
    expect(gate.current(RATE_LIMIT_POLICY.maxHoldMs)).toBeUndefined();
  });
});
