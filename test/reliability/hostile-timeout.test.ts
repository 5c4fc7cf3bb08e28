/**
 * The total timeout's message against a slow real server: a budget used up over several
 * attempts must be named with its size and the time the call really took, not what was left
 * for the last attempt.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiKey, type ApiError, createClient, isTimeoutError } from '../../api/client/index.js';
import { makeCanary } from './helpers.js';
import { type HostileServer, rawErrorEnvelope, startHostileServer } from './hostile-server.js';

let hostile: HostileServer;
beforeAll(async () => {
  hostile = await startHostileServer();
});
afterAll(async () => {
  await hostile?.close();
});

/** Backoff jitter at its least, so the attempts fall where the comments say. */
beforeEach(() => void vi.spyOn(Math, 'random').mockReturnValue(0));
afterEach(() => void vi.restoreAllMocks());

async function clientError(options: Partial<Parameters<typeof createClient>[0]>): Promise<ApiError> {
  const client = createClient({ baseUrl: hostile.baseUrl, apiKey: new ApiKey(makeCanary(), 'slow'), tenant: 'rowery-nowak', ...options });
  try {
    return await client.list('clients').then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error as ApiError,
    );
  } finally {
    await client.close();
  }
}

describe('the total timeout, used up over several attempts against a slow server', () => {
  const measured = (message: string, budgetMs: number): number | undefined => {
    const said = new RegExp(`total timeout: (\\d+) ms of the ${budgetMs} ms budget \\(totalTimeoutMs\\) used by \\d+ attempts`).exec(
      message,
    );
    return said ? Number(said[1]) : undefined;
  };

  it('an attempt cut by the deadline: names the budget, and elapsed is the whole budget', async () => {
    // 503 after 1 000 ms; the backoff (random 0) is 125 ms, so the second attempt starts at about
    // 1 125 ms (a retry fits while the first ends before 1 875 ms: room for a loaded runner) and
    // the 2 100 ms deadline cuts it before the server's answer, 1 000 ms later.
    hostile.set({ status: 503, body: () => rawErrorEnvelope('internal_error', 'awaria'), delayMs: 1_000 });
    const started = performance.now();
    const error = await clientError({ maxRetries: 10, totalTimeoutMs: 2_100 });
    const tookMs = performance.now() - started;
    expect(isTimeoutError(error) && error.scope, error.message).toBe('total');
    expect(error.attempts).toBe(2);
    const elapsed = measured(error.message, 2_100);
    expect(elapsed, error.message).toBeDefined();
    // The deadline timer may fire a millisecond early; the call cannot end before it.
    expect(elapsed).toBeGreaterThanOrEqual(2_098);
    expect(elapsed).toBeLessThanOrEqual(Math.ceil(tookMs));
    expect(isTimeoutError(error) && error.elapsedMs).toBe(elapsed);
  });

  it('attempts cut by their own budget until no room is left: the total budget, elapsed and what was left', async () => {
    hostile.set({ status: 200, body: () => '{"ok":true,"data":[]}', delayMs: 400 });
    const started = performance.now();
    const error = await clientError({ maxRetries: 10, attemptTimeoutMs: 150, totalTimeoutMs: 600 });
    const tookMs = performance.now() - started;
    expect(isTimeoutError(error) && error.scope, error.message).toBe('total');
    expect(error.stopReason).toBe('deadline');
    const elapsed = measured(error.message, 600);
    expect(elapsed, error.message).toBeDefined();
    expect(elapsed).toBeLessThanOrEqual(Math.ceil(tookMs));
    const left = 600 - (elapsed ?? 0);
    if (left > 0) expect(error.message).toContain(`; ${left} ms left, too little for another attempt`);
  });
});
