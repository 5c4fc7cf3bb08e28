/** The engine's pacing: when a 429 is waited out, when it stops the run, and the request budget. */
import { describe, expect, it } from 'vitest';
import type { AttemptResult } from '../../api/client/single-attempt.js';
import { type PacedRun, REQUEST_BUDGET, afterAnswer, pacedCall, pacedRun, retryHintOf } from '../../diagnose/engine.js';
import { NOW, err, ok, refused } from '../helpers/diagnose-fixtures.js';

const LIMITS = { budget: REQUEST_BUDGET, maxWaitMs: 10_000 };
const timeout = (): AttemptResult => ({
  kind: 'failure',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  failure: { kind: 'timeout', phase: 'headers', message: 'slow' },
  timings: { headersMs: undefined, totalMs: 5000 },
});

interface AnsweredCall {
  readonly check: string;
  readonly retried: boolean;
  readonly previousNoAnswer: string | undefined;
  readonly spent: { readonly requests: number; readonly waitedMs: number };
  readonly limits: PacedRun['limits'];
}

/** `afterAnswer`'s decision on one answer, the run having spent `spent`. */
function answer(result: AttemptResult, over: Partial<AnsweredCall> = {}) {
  const a: AnsweredCall = {
    check: 'scope:clients',
    retried: false,
    previousNoAnswer: undefined,
    spent: { requests: 3, waitedMs: 0 },
    limits: LIMITS,
    ...over,
  };
  const run = { ...pacedRun('http://x', a.limits), ...a.spent, unanswered: a.previousNoAnswer };
  return () => afterAnswer(run, a.check, result, retryHintOf(result, NOW), a.retried);
}

describe('retryHintOf', () => {
  it.each([
    [{ 'retry-after': '7' }, 'retry-after', 7000],
    [{ 'retry-after': new Date(NOW + 30_000).toUTCString() }, 'retry-after', 30_000],
    [{ 'retry-after-ms': '1500' }, 'retry-after-ms', 1500],
    [{ 'ratelimit-reset': '12' }, 'ratelimit-reset', 12_000],
    [{ ratelimit: '"default";r=0;t=20' }, 'ratelimit', 20_000],
    [{ 'x-ratelimit-reset': String(Math.floor(NOW / 1000) + 40) }, 'x-ratelimit-reset', 40_000],
  ])('reads a 429 with %j', (headers, source, delayMs) => {
    expect(retryHintOf(err(429, 'rate_limited', 'clients', headers), NOW)).toEqual({ source, delayMs });
  });

  it('reads nothing from other answers, or a 429 without a hint', () => {
    expect(retryHintOf(ok('clients'), NOW)).toBeUndefined();
    expect(retryHintOf(err(503, 'internal_error', 'clients', { 'retry-after': '5' }), NOW)).toBeUndefined();
    expect(retryHintOf(err(429, 'rate_limited', 'clients'), NOW)).toBeUndefined();
  });
});

describe('afterAnswer', () => {
  it('goes on after any answer that is not a 429 or a dead host', () => {
    for (const result of [ok('clients'), err(401, 'unauthorized', 'clients'), err(502, 'internal_error', 'clients'), timeout()]) {
      expect(answer(result)().kind).toBe('next');
    }
  });

  it('waits out a short Retry-After and retries once', () => {
    expect(answer(err(429, 'rate_limited', 'clients', { 'retry-after': '3' }))()).toEqual({
      kind: 'retry',
      hint: { source: 'retry-after', delayMs: 3000 },
    });
  });

  it.each([
    ['no hint at all', {}, {}, 'no_hint'],
    ['a wait longer than --max-wait', { 'retry-after': '60' }, {}, 'too_long'],
    [
      'a wait that would pass --max-wait with what was already waited',
      { 'retry-after': '4' },
      { spent: { requests: 3, waitedMs: 7000 } },
      'too_long',
    ],
    ['a second 429 on the retry', { 'retry-after': '3' }, { retried: true }, 'still_limited'],
    ['a retry past the budget', { 'retry-after': '1' }, { spent: { requests: REQUEST_BUDGET, waitedMs: 0 } }, 'budget'],
  ] as const)('stops on %s', (_name, headers, over, why) => {
    const decision = answer(err(429, 'rate_limited', 'clients', headers), over)();
    expect(decision).toMatchObject({ kind: 'stop', reason: { kind: 'rate_limited', check: 'scope:clients', why } });
  });

  it('--max-wait 0 never waits', () => {
    const decision = answer(err(429, 'rate_limited', 'clients', { 'retry-after': '1' }), { limits: { ...LIMITS, maxWaitMs: 0 } })();
    expect(decision).toMatchObject({ kind: 'stop', reason: { why: 'too_long' } });
  });

  it('stops when /docs cannot connect, not when it only hangs', () => {
    expect(answer(refused(), { check: 'docs' })()).toEqual({
      kind: 'stop',
      reason: { kind: 'host_unreachable', check: 'docs' },
    });
    expect(answer(timeout(), { check: 'docs' })().kind).toBe('next');
  });

  it('stops after two calls in a row got no answer', () => {
    expect(answer(timeout(), { previousNoAnswer: 'docs' })()).toEqual({
      kind: 'stop',
      reason: { kind: 'no_answer', checks: ['docs', 'scope:clients'] },
    });
  });
});

describe('pacedCall', () => {
  it('sends nothing once the budget is spent, and records the call as not run', () => {
    const run: PacedRun = { ...pacedRun('http://x', LIMITS), requests: REQUEST_BUDGET };
    const step = pacedCall(run, { id: 'docs', endpoint: 'docs', path: '/docs', auth: 'none' }).next();
    expect(step).toMatchObject({ done: true, value: { result: undefined, attempts: 0 } });
    expect(run.stopped).toEqual({ kind: 'budget', limit: REQUEST_BUDGET });
  });
});
