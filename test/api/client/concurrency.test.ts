import { describe, expect, it } from 'vitest';
import { createConcurrencyLimiter } from '../../../api/client/concurrency.js';
import { MAX_GATE_PAUSE_MS, createRateLimitGate } from '../../../api/client/gate.js';
import { createRetryBudget } from '../../../api/client/retry-budget.js';

describe('concurrency limiter', () => {
  it('lets max holders in, queues the rest in order, and hands slots over on release', async () => {
    const limiter = createConcurrencyLimiter(2);
    const a = limiter.tryAcquire();
    const b = limiter.tryAcquire();
    expect(a && b).toBeTruthy();
    expect(limiter.tryAcquire()).toBeUndefined();
    const order: string[] = [];
    const c = limiter.acquire().then((release) => (order.push('c'), release));
    const d = limiter.acquire().then((release) => (order.push('d'), release));
    a?.();
    a?.(); // a second release of the same slot is ignored
    const releaseC = await c;
    expect(order).toEqual(['c']);
    releaseC();
    (await d)();
    b?.();
    expect(order).toEqual(['c', 'd']);
    expect(limiter.tryAcquire()).toBeDefined();
  });

  it('a waiting caller can abort and leaves the queue', async () => {
    const limiter = createConcurrencyLimiter(1);
    const held = limiter.tryAcquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort('gone');
    await expect(waiting).rejects.toBe('gone');
    held?.();
    expect(limiter.tryAcquire()).toBeDefined();
  });
});

describe('rate-limit gate and retry budget', () => {
  const hint = { source: 'retry-after' as const, delayMs: 1000 };
  it('the gate keeps the longest pause and lifts it when it has passed', () => {
    const gate = createRateLimitGate();
    gate.pause(1000, hint);
    gate.pause(500, hint);
    expect(gate.current(1000)?.until).toBe(2000);
    expect(gate.current(2000)).toBeUndefined();
  });

  it('one absurd hint pauses the gate for MAX_GATE_PAUSE_MS at most, not for the life of the process', () => {
    const gate = createRateLimitGate();
    gate.pause(0, { source: 'retry-after', delayMs: 1e18 });
    expect(gate.current(0)?.until).toBe(MAX_GATE_PAUSE_MS);
    expect(gate.current(MAX_GATE_PAUSE_MS)).toBeUndefined();
  });

  it('the budget spends one token per retry and refills over time', () => {
    const budget = createRetryBudget({ capacity: 2, refillPerSecond: 1 }, 0);
    expect([budget.tryTake(0), budget.tryTake(0), budget.tryTake(0)]).toEqual([true, true, false]);
    expect(budget.tryTake(999)).toBe(false);
    expect(budget.tryTake(2000)).toBe(true);
    expect(budget.available(10_000)).toBe(2);
  });
});
