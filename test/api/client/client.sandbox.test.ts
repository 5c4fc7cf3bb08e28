/**
 * The client against the real sandbox over HTTP, with faults; everything real, so waits are
 * kept to about a second (a storm's Retry-After 1, one retry).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { TENANT_RESOURCES } from '../../../api/contract/index.js';
import {
  type ApiError,
  ApiKey,
  type ClientOptions,
  type RepairServiceClient,
  createClient,
  isApiError,
  isAuthenticationError,
  isConnectionError,
  isEnvelopeError,
  isInsufficientScopeError,
  isPermissionDeniedError,
  isRateLimitError,
  isServerError,
  isTenantMismatchError,
  isTimeoutError,
} from '../../../api/client/index.js';

let sandbox: RunningSandbox;
const clients: RepairServiceClient[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(async () => {
  sandbox.setFaults('');
  sandbox.clearRequests();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(alias: string, over: Partial<ClientOptions> = {}): RepairServiceClient {
  const demo = sandbox.key(alias);
  const made = createClient({
    baseUrl: sandbox.baseUrl,
    apiKey: new ApiKey(demo.key, alias),
    tenant: 'rowery-nowak',
    logLevel: 'silent',
    ...over,
  });
  clients.push(made);
  return made;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const sent = (path: string) => sandbox.requests().filter((r) => r.path.endsWith(path)).length;

/** Options whose logger calls `each` with the delay of every retry the client makes. */
function onRetry(each: (delayMs: number) => void): Partial<ClientOptions> {
  const none = (): void => undefined;
  return { logLevel: 'info', logger: { debug: none, warn: none, error: none, info: (_m, f) => each((f as { delayMs: number }).delayMs) } };
}

describe('client vs sandbox: access rules', () => {
  it('reads every endpoint with a platform key, and docs without sending one', async () => {
    const c = client('platform-test');
    expect(await c.index()).toBeDefined();
    expect(await c.docs()).toBeDefined();
    for (const list of TENANT_RESOURCES.map((r) => c.list(r))) expect(Array.isArray(await list)).toBe(true);
    expect(await c.platform.get('tenants')).toBeDefined();
    expect(sandbox.requests().find((r) => r.path.endsWith('/docs'))?.keyAlias).toBeUndefined();
  });

  it('401, 403 mismatch, 403 scope and platform_key_required come back as their classes, in one attempt', async () => {
    const revoked = await failure(client('nowak-revoked-test').list('clients'));
    expect(isAuthenticationError(revoked) && revoked.status).toBe(401);
    const mismatch = await failure(client('nowak-test').list('clients', { tenant: 'serwis-kowalski' }));
    expect(isTenantMismatchError(mismatch)).toBe(true);
    expect(mismatch.serverMessage).toMatch(/\S/);
    const scope = await failure(client('nowak-nologs-test').list('logs'));
    expect(isInsufficientScopeError(scope)).toBe(true);
    const platform = await failure(client('nowak-test').platform.get('tenants'));
    expect(isPermissionDeniedError(platform) && platform.code).toBe('platform_key_required');
    expect(sandbox.requests()).toHaveLength(4);
  });

  it('the x-api-key scheme works too', async () => {
    expect(Array.isArray(await client('nowak-test', { authScheme: 'x-api-key' }).list('bikes'))).toBe(true);
  });
});

describe('client vs sandbox: faults', () => {
  it('429 storm with Retry-After: waits it out and succeeds once the storm passes', async () => {
    sandbox.setFaults('rate-limit-storm:1@/tenants/*/clients');
    const delays: number[] = [];
    const c = client(
      'nowak-test',
      onRetry((ms) => {
        delays.push(ms);
        sandbox.setFaults('');
      }),
    );
    expect(Array.isArray(await c.list('clients'))).toBe(true);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(1000);
    expect(sent('/clients')).toBe(2);
  });

  it('429 storm without a hint: backs off and ends as RateLimitError after maxRetries', async () => {
    sandbox.setFaults('rate-limit-storm');
    const error = await failure(client('nowak-test', { maxRetries: 1 }).list('clients'));
    expect(isRateLimitError(error) && error.attempts).toBe(2);
    expect(error.retryHistory.every((r) => r.basis === 'backoff')).toBe(true);
  });

  it('a storm asking for more than maxRetryAfterMs fails each call at once, on its own 429 (no client-wide pause for it)', async () => {
    sandbox.setFaults('rate-limit-storm:120');
    const c = client('nowak-test');
    const first = await failure(c.list('clients'));
    expect(isRateLimitError(first) && first.retryAfterMs).toBe(120_000);
    const second = await failure(c.list('bikes'));
    expect(isRateLimitError(second) && [second.attempts, second.stopReason]).toEqual([1, 'hint_above_max']);
    expect(sandbox.requests()).toHaveLength(2);
  });

  it('the sandbox’s own rate limit: RateLimitError carries limit and remaining', async () => {
    const limited = await startSandbox({ rateLimit: '2/1m' });
    try {
      const demo = limited.key('nowak-test');
      const c = createClient({
        baseUrl: limited.baseUrl,
        apiKey: new ApiKey(demo.key, 'nowak-test'),
        tenant: 'rowery-nowak',
        logLevel: 'silent',
      });
      clients.push(c);
      await c.list('clients');
      await c.list('clients');
      const error = await failure(c.list('clients'));
      expect(isRateLimitError(error)).toBe(true);
      if (isRateLimitError(error))
        expect(error).toMatchObject({ rateLimit: { limit: 2, remaining: 0 }, attempts: 1, stopReason: 'hint_above_max' });
    } finally {
      await limited.close();
    }
  });

  it('connection resets are retried; persistent resets end as ConnectionError', async () => {
    sandbox.setFaults('reset@/tenants/*/bikes');
    const c = client(
      'nowak-test',
      onRetry(() => sandbox.setFaults('')),
    );
    expect(Array.isArray(await c.list('bikes'))).toBe(true);
    sandbox.setFaults('reset');
    const error = await failure(client('nowak-test', { maxRetries: 1 }).list('bikes'));
    expect(isConnectionError(error)).toBe(true);
    expect(error.attempts).toBe(2);
  });

  it('an HTML 502 from a proxy is a retryable ServerError', async () => {
    sandbox.setFaults('html-502');
    const error = await failure(client('nowak-test', { maxRetries: 1 }).list('repairs'));
    expect(isServerError(error) && error.status).toBe(502);
    expect(error.code).toBeUndefined();
    expect(error.attempts).toBe(2);
  });

  it('a stalled body hits the attempt timeout and is retried', async () => {
    sandbox.setFaults('stall');
    const error = await failure(client('nowak-test', { attemptTimeoutMs: 150, maxRetries: 1 }).list('clients'));
    expect(isTimeoutError(error)).toBe(true);
    if (isTimeoutError(error)) expect(error).toMatchObject({ scope: 'attempt', phase: 'body', attempts: 2 });
  });

  it.each([
    ['broken-envelope', 'ok_missing'],
    ['invalid-json', 'not_json'],
    ['ok-without-data', 'data_missing'],
  ])('%s is an EnvelopeError and is not retried', async (fault, problem) => {
    sandbox.setFaults(fault);
    const error = await failure(client('nowak-test').list('clients'));
    expect(isEnvelopeError(error) && error.problem).toBe(problem);
    expect(sent('/clients')).toBe(1);
  });

  it('a redirect is not followed, so the key never reaches another origin', async () => {
    sandbox.setFaults('redirect:http://127.0.0.1:1/steal');
    const error = await failure(client('nowak-test').list('clients'));
    expect(error.status).toBe(302);
    expect(error.attempts).toBe(1);
  });
});
