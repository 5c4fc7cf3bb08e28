/** Default handlers' one short line, nextStep advice per code, timeout budgets and body excerpts. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiError, type ClientOptions, type ErrorHandlers, createClient, isApiError, isServerError, isTimeoutError, nextStep } from '../../../api/client/index.js';
import type { AttemptFailure } from '../../../api/client/attempt.js';
import { bodyExcerptOf } from '../../../api/client/body-excerpt.js';
import { errorFromAttempt } from '../../../api/client/error-factory.js';
import { HANDLER_LINE_MAX } from '../../../api/client/handlers.js';
import { BASE_URL, KEY, SECRET, captureLogger, envelopeError, envelopeOk, instantClock, mockAgent } from './helpers.js';

const agents: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

function setup(over: Partial<ClientOptions> = {}) {
  const { agent, pool } = mockAgent();
  agents.push(agent);
  const { logger, lines } = captureLogger();
  const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant: 'rowery-nowak', dispatcher: agent, clock: instantClock().clock, random: () => 0.5, logger, ...over });
  return { pool, client, lines };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('advice per code (nextStep) and the default line', () => {
  it.each([
    ['/api/v1/tenants/rowery-nowak/clients', 401, 'unauthorized', 'fix_key', 'use a current key of this environment'],
    ['/api/v1/tenants/rowery-nowak/clients', 403, 'tenant_key_tenant_mismatch', 'fix_tenant', "use that tenant's key or the right slug"],
    ['/api/v1/platform/tenants', 403, 'platform_key_required', 'use_platform_key', 'use a platform key'],
    ['/api/v1/tenants/rowery-nowak/logs', 403, 'insufficient_scope', 'request_scope', 'use a key whose scope covers logs'],
    ['/api/v1/tenants/rowery-nowak/bikes', 403, 'forbidden_other', 'request_scope', 'use a key allowed to read bikes'],
    ['/api/v1/tenants/rowery-nowak/repairs', 404, 'not_found', 'check_path', 'check the path and the tenant slug'],
    ['/api/v1/tenants/rowery-nowak/repairs', 429, 'rate_limited', 'retry_later', 'retry after 7 s'],
  ])('%s %i %s -> %s', async (path, status, code, kind, action) => {
    const { pool, client, lines } = setup({ maxRetryAfterMs: 1000 });
    pool.intercept({ path }).reply(status, envelopeError(code, 'komunikat'), { headers: { 'x-request-id': 'req-5', 'retry-after': '7' } });
    const error = await failure(client.get(path.slice('/api/v1'.length)));
    const step = nextStep(error);
    expect(step).toMatchObject({ kind, action });
    expect(step.why.length).toBeGreaterThan(40);
    const warns = lines.filter((l) => l.level === 'warn');
    expect(warns).toHaveLength(1);
    expect(warns[0]?.message).toBe(`${error.name} ${status} ${code} GET ${path.slice(7)} (request req-5): ${action}`);
    expect(warns[0]?.message.length).toBeLessThanOrEqual(HANDLER_LINE_MAX);
  });

  it('the line stays short with a 256-character tenant and a long request id; the key never appears', async () => {
    const tenant = 't'.repeat(256);
    const { pool, client, lines } = setup();
    pool.intercept({ path: `/api/v1/tenants/${tenant}/clients` }).reply(401, envelopeError('unauthorized', SECRET), { headers: { 'x-request-id': 'r'.repeat(300) } });
    await failure(client.listClients({ tenant }));
    const line = lines.find((l) => l.level === 'warn')?.message ?? '';
    expect(line.length).toBeLessThanOrEqual(HANDLER_LINE_MAX);
    // The request id was cut where it was read (SERVER_TEXT_LIMITS.header), then again to fit the line.
    expect(line).toMatch(/^AuthenticationError 401 unauthorized GET \/tenants\/t+…t+\/clients \(request r+…r+…\): use a current key of this environment$/);
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('a long code or path from the server cannot make the line long', async () => {
    const { pool, client, lines } = setup();
    const path = `/platform/${'a/'.repeat(90)}x`;
    pool.intercept({ path: `/api/v1${path}` }).reply(403, envelopeError('c'.repeat(300), 'x'));
    await failure(client.platform.get(path.slice('/platform/'.length)));
    const line = lines.find((l) => l.level === 'warn')?.message ?? '';
    expect(line.length).toBeLessThanOrEqual(HANDLER_LINE_MAX);
    // The code was cut where it was read (SERVER_TEXT_LIMITS.code), then again to fit the line.
    expect(line).toMatch(/^PermissionDeniedError 403 c+…c+… GET \/platform.*: use a key allowed to read …/);
  });

  it('a handler you pass replaces the default: nothing is logged for that case', async () => {
    const handlers: Required<ErrorHandlers> = {
      onAuthError: vi.fn(),
      onTenantMismatch: vi.fn(),
      onInsufficientScope: vi.fn(),
      onRateLimited: vi.fn(),
      onNotFound: vi.fn(),
    };
    const { pool, client, lines } = setup({ handlers, maxRetryAfterMs: 0 });
    // The 429 last: its Retry-After pauses the client, which would refuse the calls after it.
    const cases: Array<[number, string]> = [[401, 'unauthorized'], [403, 'tenant_key_tenant_mismatch'], [403, 'insufficient_scope'], [404, 'not_found'], [429, 'rate_limited']];
    for (const [status, code] of cases) {
      pool.intercept({ path: '/api/v1/tenants/rowery-nowak/clients' }).reply(status, envelopeError(code, 'x'), { headers: { 'retry-after': '5' } });
      await failure(client.listClients());
    }
    for (const handler of Object.values(handlers)) expect(handler).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([]);
  });
});

describe('timeouts name the budget that ran out', () => {
  const ctx = { method: 'GET', path: '/tenants/x/clients', host: 'api.test', attempts: 3, retryHistory: [], retryable: true, stopReason: 'deadline', now: 0 };
  const timedOut: AttemptFailure = { kind: 'failure', failure: { kind: 'timeout', phase: 'headers', message: 'x' }, timings: { headersMs: undefined, totalMs: 1279 } };

  it('total: its size, the attempts and the waits that used it (not the last attempt’s remainder)', () => {
    const error = errorFromAttempt(timedOut, { ...ctx, timeoutScope: 'total', budget: { totalTimeoutMs: 8000, attemptTimeoutMs: 15_000, connectTimeoutMs: 5000, waitedMs: 2400, elapsedMs: 8001.4 } });
    expect(error.message).toBe('GET /tenants/x/clients failed: total timeout: 8001 ms of the 8000 ms budget (totalTimeoutMs) used by 3 attempts and 2.4 s of waits');
    expect(error).toMatchObject({ scope: 'total', timeoutMs: 8000, waitedMs: 2400, elapsedMs: 8001 });
  });

  it('attempt and connect: the per-attempt and connect budgets by their option names', () => {
    const budget = { totalTimeoutMs: 60_000, attemptTimeoutMs: 15_000, connectTimeoutMs: 5000, waitedMs: 0, elapsedMs: 15_000 };
    expect(errorFromAttempt(timedOut, { ...ctx, timeoutScope: 'attempt', budget }).message).toMatch(/headers timeout: the 15000 ms budget of one attempt \(attemptTimeoutMs\) ran out/);
    const connect: AttemptFailure = { ...timedOut, failure: { kind: 'timeout', phase: 'connect', message: 'x' } };
    const error = errorFromAttempt(connect, { ...ctx, timeoutScope: 'attempt', budget });
    expect(error.message).toMatch(/connect timeout: no connection within the 5000 ms budget \(connectTimeoutMs\)/);
    expect(isTimeoutError(error) && error.timeoutMs).toBe(5000);
  });

  it('through the client: an attempt cut by the total deadline reports the total budget', async () => {
    const { pool, client } = setup({ attemptTimeoutMs: 10_000, totalTimeoutMs: 150 });
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/clients' }).reply(200, envelopeOk([])).delay(2000);
    const error = await failure(client.listClients());
    expect(error.message).toMatch(/total timeout: \d+ ms of the 150 ms budget \(totalTimeoutMs\) used by 1 attempt and 0\.0 s of waits/);
  });
});

describe('a body that is not the envelope carries a short excerpt', () => {
  const html = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>
    <body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx/1.25.3</center><!-- ${'pad '.repeat(200)} --></body></html>`;

  it('an HTML 502 is a ServerError with bodyExcerpt and a hint of it in the message', async () => {
    const { pool, client } = setup({ maxRetries: 0 });
    pool.intercept({ path: '/api/v1/docs' }).reply(502, html, { headers: { 'content-type': 'text/html' } });
    const error = await failure(client.docs());
    expect(isServerError(error) && error.bodyExcerpt).toBe('502 Bad Gateway 502 Bad Gateway nginx/1.25.3');
    expect(error.message).toBe('GET /docs failed: HTTP 502 (not the API envelope: "502 Bad Gateway 502 Bad Gateway nginx/1.25.3") (1 attempt, retries_exhausted)');
  });

  it('is scrubbed of the key, cut short, and absent when the body was the envelope', async () => {
    const { pool, client } = setup({ maxRetries: 0 });
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/clients' }).reply(503, `upstream said ${SECRET} ${'x'.repeat(1000)}`);
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/bikes' }).reply(503, envelopeError('internal_error', 'x'));
    const plain = await failure(client.listClients());
    expect(plain.bodyExcerpt?.length).toBeLessThanOrEqual(200);
    expect(JSON.stringify(plain)).not.toContain(SECRET);
    expect((await failure(client.listBikes())).bodyExcerpt).toBeUndefined();
    expect(bodyExcerptOf('<p>a</p>\n\n<script>alert(1)</script><b>b</b>')).toBe('a b');
  });
});
