/** nextStep advice per code, messages that keep the whole path, timeout budgets and body excerpts. */
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiError, type ClientOptions, createClient, isApiError, isServerError, nextStep } from '../../../api/client/index.js';
import { printable } from '../../../api/contract/index.js';
import { BASE_URL, KEY, SECRET, envelopeError, envelopeOk, mockAgent } from './helpers.js';

const agents: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

function setup(over: Partial<ClientOptions> = {}) {
  const { agent, pool } = mockAgent();
  agents.push(agent);
  const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant: 'rowery-nowak', dispatcher: agent, logLevel: 'silent', ...over });
  return { pool, client };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('advice per code (nextStep)', () => {
  it.each([
    ['/api/v1/tenants/rowery-nowak/clients', 401, 'unauthorized', 'fix_key', 'use a current key of this environment'],
    ['/api/v1/tenants/rowery-nowak/clients', 403, 'tenant_key_tenant_mismatch', 'fix_tenant', "use that tenant's key or the right slug"],
    ['/api/v1/platform/tenants', 403, 'platform_key_required', 'use_platform_key', 'use a platform key'],
    ['/api/v1/tenants/rowery-nowak/logs', 403, 'insufficient_scope', 'request_scope', 'use a key whose scope covers logs'],
    ['/api/v1/tenants/rowery-nowak/bikes', 403, 'forbidden_other', 'request_scope', 'use a key allowed to read bikes'],
    ['/api/v1/tenants/rowery-nowak/repairs', 404, 'not_found', 'check_path', 'check the path and the tenant slug'],
    ['/api/v1/tenants/rowery-nowak/repairs', 429, 'rate_limited', 'retry_later', 'retry after 7 s'],
  ])('%s %i %s -> %s', async (path, status, code, kind, action) => {
    const { pool, client } = setup({ maxRetryAfterMs: 1000 });
    pool.intercept({ path }).reply(status, envelopeError(code, 'komunikat'), { headers: { 'x-request-id': 'req-5', 'retry-after': '7' } });
    const error = await failure(client.get(path.slice('/api/v1'.length)));
    const step = nextStep(error);
    expect(step).toMatchObject({ kind, action });
    expect(step.why.length).toBeGreaterThan(40);
    expect(error.message).toContain(`GET ${path.slice(7)} failed: HTTP ${status} ${code}`);
  });

  it('anything else is investigate', () => {
    expect(nextStep(new Error('disk full'))).toEqual({ kind: 'investigate', action: 'investigate', why: 'disk full' });
  });

  it('a message keeps the whole path (a 256-character tenant slug is not a secret), the key never', async () => {
    const tenant = 't'.repeat(256);
    const { pool, client } = setup();
    pool
      .intercept({ path: `/api/v1/tenants/${tenant}/clients` })
      .reply(401, envelopeError('unauthorized', SECRET), { headers: { 'x-request-id': 'r'.repeat(300) } });
    const error = await failure(client.list('clients', { tenant }));
    expect(error.message).toContain(`GET /tenants/${tenant}/clients failed`);
    expect(error.requestId).toMatch(/^r{127}…$/);
    expect(JSON.stringify(error) + error.message).not.toContain(SECRET);
  });

  it('a long or hostile code from the server is cut where it was read and printable in the message', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: '/api/v1/platform/x' }).reply(403, envelopeError(`c${'\u001b[2J'.repeat(100)}`, 'x'));
    const error = await failure(client.platform.get('x'));
    expect(error.code?.length).toBeLessThanOrEqual(64);
    expect(printable(error.message)).toBe(error.message);
  });
});

describe('timeouts name the budget that ran out', () => {
  it('an attempt cut by the total deadline reports the total budget', async () => {
    const { pool, client } = setup({ attemptTimeoutMs: 10_000, totalTimeoutMs: 150 });
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/clients' }).reply(200, envelopeOk([])).delay(2000);
    const error = await failure(client.list('clients'));
    expect(error.message).toMatch(/total timeout: \d+ ms of the 150 ms budget \(totalTimeoutMs\) used by 1 attempt and 0\.0 s of waits/);
  });

  it('a connect timeout names the attempt budget it ran out of', async () => {
    const { pool, client } = setup({ attemptTimeoutMs: 5000, maxRetries: 0 });
    pool
      .intercept({ path: '/api/v1/docs' })
      .replyWithError(Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }));
    const error = await failure(client.docs());
    expect(error.message).toMatch(
      /connect timeout: the 5000 ms budget of one attempt \(attemptTimeoutMs\) ran out \(1 attempt, retries_exhausted\)/,
    );
    expect(error).toMatchObject({ kind: 'timeout', scope: 'attempt', phase: 'connect', timeoutMs: 5000 });
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
    expect(error.message).toBe(
      'GET /docs failed: HTTP 502 (not the API envelope: "502 Bad Gateway 502 Bad Gateway nginx/1.25.3") (1 attempt, retries_exhausted)',
    );
  });

  it('is scrubbed of the key, cut short, scripts dropped, and absent when the body was the envelope', async () => {
    const { pool, client } = setup({ maxRetries: 0 });
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/clients' }).reply(503, `upstream said ${SECRET} ${'x'.repeat(1000)}`);
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/bikes' }).reply(503, envelopeError('internal_error', 'x'));
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/logs' }).reply(503, '<p>a</p>\n\n<script>alert(1)</script><b>b</b>');
    const plain = await failure(client.list('clients'));
    expect(plain.bodyExcerpt?.length).toBeLessThanOrEqual(200);
    expect(JSON.stringify(plain)).not.toContain(SECRET);
    expect((await failure(client.list('bikes'))).bodyExcerpt).toBeUndefined();
    expect((await failure(client.list('logs'))).bodyExcerpt).toBe('a b');
  });
});
