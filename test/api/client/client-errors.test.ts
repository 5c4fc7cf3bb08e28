import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  type ErrorHandlers,
  createClient,
  defaultErrorHandlers,
  isApiError,
  isAuthenticationError,
  isEnvelopeError,
  isInsufficientScopeError,
  isNotFoundError,
  isPaginationError,
  isParseError,
  isPermissionDeniedError,
  isRateLimitError,
  isTenantMismatchError,
  isTimeoutError,
} from '../../../api/client/index.js';
import { BASE_URL, KEY, SECRET, captureLogger, envelopeError, instantClock, mockAgent } from './helpers.js';

const CLIENTS = '/api/v1/tenants/rowery-nowak/clients';
const agents: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

function setup(handlers: Partial<ErrorHandlers> = {}) {
  const { agent, pool } = mockAgent();
  agents.push(agent);
  const { logger, lines } = captureLogger();
  const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant: 'rowery-nowak', dispatcher: agent, clock: instantClock().clock, logger, handlers });
  return { pool, client, lines };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${inspect(error)}`);
  return error;
}

describe('client: 401 and 403 are never retried and reach their handler once', () => {
  it('401 unauthorized -> AuthenticationError with the Polish message verbatim and the request id', async () => {
    const onAuthError = vi.fn();
    const { pool, client } = setup({ onAuthError });
    pool.intercept({ path: CLIENTS }).reply(401, envelopeError('unauthorized', 'Nieprawidłowy klucz API'), { headers: { 'x-request-id': 'req-42' } });
    const error = await failure(client.listClients());
    expect(isAuthenticationError(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', serverMessage: 'Nieprawidłowy klucz API', requestId: 'req-42', attempts: 1, retryable: false });
    expect(error.path).toBe('/tenants/rowery-nowak/clients');
    expect(onAuthError).toHaveBeenCalledTimes(1);
    expect(onAuthError.mock.calls[0]?.[1]).toEqual({
      keyAlias: 'nowak-test',
      keyHint: KEY.hint,
      tenant: 'rowery-nowak',
      host: 'api.test',
      method: 'GET',
      path: '/tenants/rowery-nowak/clients',
    });
  });

  it('403 tenant_key_tenant_mismatch -> TenantMismatchError, a PermissionDeniedError', async () => {
    const onTenantMismatch = vi.fn();
    const { pool, client } = setup({ onTenantMismatch });
    pool.intercept({ path: CLIENTS }).reply(403, envelopeError('tenant_key_tenant_mismatch', 'Klucz należy do innego najemcy'));
    const error = await failure(client.listClients());
    expect(isTenantMismatchError(error) && isPermissionDeniedError(error)).toBe(true);
    expect(error.attempts).toBe(1);
    expect(onTenantMismatch).toHaveBeenCalledTimes(1);
  });

  it('403 insufficient_scope -> InsufficientScopeError; other 403 codes -> PermissionDeniedError', async () => {
    const onInsufficientScope = vi.fn();
    const { pool, client } = setup({ onInsufficientScope });
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/logs' }).reply(403, envelopeError('insufficient_scope', 'Brak uprawnień'));
    pool.intercept({ path: '/api/v1/platform/tenants' }).reply(403, envelopeError('platform_key_required', 'Wymagany klucz platformy'));
    const scope = await failure(client.listLogs());
    expect(isInsufficientScopeError(scope)).toBe(true);
    const platform = await failure(client.platform.get('tenants'));
    expect(isPermissionDeniedError(platform)).toBe(true);
    expect(isInsufficientScopeError(platform)).toBe(false);
    expect(platform.code).toBe('platform_key_required');
    expect(onInsufficientScope).toHaveBeenCalledTimes(2);
  });

  it('classifies by code, not by message: `unauthorized` on a 400 is still an AuthenticationError', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: CLIENTS }).reply(400, envelopeError('unauthorized', 'tenant_key_tenant_mismatch'));
    expect(isAuthenticationError(await failure(client.listClients()))).toBe(true);
  });

  it('a handler that throws does not replace the API error', async () => {
    const { pool, client, lines } = setup({
      onAuthError: () => {
        throw new Error('boom');
      },
    });
    pool.intercept({ path: CLIENTS }).reply(401, envelopeError('unauthorized', 'x'));
    expect(isAuthenticationError(await failure(client.listClients()))).toBe(true);
    expect(lines.some((l) => l.level === 'error' && l.message.includes('handler threw'))).toBe(true);
  });
});

describe('client: broken responses are EnvelopeErrors and are not retried', () => {
  it.each([
    ['ok:false on 200', 200, JSON.stringify(envelopeError('x', 'y')), 'status_ok_mismatch'],
    ['not JSON', 200, '<html>hi</html>', 'not_json'],
    ['ok without data', 200, '{"ok":true}', 'data_missing'],
    ['error without code', 404, '{"ok":false,"error":{"message":"m"}}', 'error_code_missing'],
  ])('%s', async (_name, status, body, problem) => {
    const { pool, client } = setup();
    pool.intercept({ path: CLIENTS }).reply(status, body);
    const error = await failure(client.listClients());
    expect(isEnvelopeError(error) && error.problem).toBe(problem);
    expect(error.attempts).toBe(1);
  });

  it('a 3xx is not followed and not retried', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: CLIENTS }).reply(302, '', { headers: { location: 'http://evil.test/steal' } });
    const error = await failure(client.listClients());
    expect(error.name).toBe('ApiError');
    expect(error.status).toBe(302);
    expect(error.message).toContain('not followed');
    expect(error.attempts).toBe(1);
  });

  it('404 is a NotFoundError (an ApiError) with its code, not retried', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: CLIENTS }).reply(404, envelopeError('not_found', 'Nie znaleziono'));
    const error = await failure(client.listClients());
    expect(error).toMatchObject({ name: 'NotFoundError', status: 404, code: 'not_found', attempts: 1 });
    expect(isNotFoundError(error) && isApiError(error)).toBe(true);
  });
});

describe('client: secrets never leave in errors or logs', () => {
  it('util.inspect and JSON.stringify of an error show the alias and hint, never the key', async () => {
    const { pool, client } = setup();
    // A hostile or buggy server echoing the key back in its message and body.
    pool.intercept({ path: CLIENTS }).reply(401, envelopeError('unauthorized', `zły klucz ${SECRET}`));
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/bikes' }).reply(200, `not json ${SECRET}`);
    for (const call of [client.listClients(), client.listBikes()]) {
      const error = await failure(call);
      const shown = [inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error), String(error), error.stack ?? ''];
      for (const text of shown) expect(text).not.toContain(SECRET);
      expect(JSON.stringify(error)).toContain('nowak-test');
    }
  });

  it('the default handlers log one actionable line per error, without the key', async () => {
    const { logger, lines } = captureLogger();
    const { agent, pool } = mockAgent();
    agents.push(agent);
    const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant: 'rowery-nowak', dispatcher: agent, logger, clock: instantClock().clock });
    pool.intercept({ path: CLIENTS }).reply(401, envelopeError('unauthorized', `klucz ${SECRET} nieważny`));
    pool.intercept({ path: CLIENTS }).reply(403, envelopeError('tenant_key_tenant_mismatch', 'inny najemca'));
    pool.intercept({ path: CLIENTS }).reply(429, envelopeError('rate_limited', 'za dużo'), { headers: { 'retry-after': '3600' } });
    for (let i = 0; i < 3; i += 1) await client.listClients().catch(() => undefined);
    const warns = lines.filter((l) => l.level === 'warn');
    expect(warns.map((w) => w.message)).toEqual([
      'AuthenticationError 401 unauthorized GET /tenants/rowery-nowak/clients: use a current key of this environment',
      "TenantMismatchError 403 tenant_key_tenant_mismatch GET /tenants/rowery-nowak/clients: use that tenant's key or the right slug",
      'RateLimitError 429 rate_limited GET /tenants/rowery-nowak/clients: retry after 3600 s',
    ]);
    expect(warns[0]?.fields).toMatchObject({ event: 'auth_error', status: 401, code: 'unauthorized', keyAlias: 'nowak-test', nextStep: 'fix_key' });
    expect(warns[2]?.fields).toMatchObject({ retryAfterMs: 3_600_000, attempts: 1 });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('defaultErrorHandlers works with console-like loggers', () => {
    const warn = vi.fn();
    const handlers = defaultErrorHandlers({ warn, error: vi.fn() });
    expect(Object.keys(handlers).sort()).toEqual(['onAuthError', 'onInsufficientScope', 'onNotFound', 'onRateLimited', 'onTenantMismatch']);
  });
});

describe('error guards work across two copies of errors.ts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'client-copy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('an error from a second copy passes the first copy’s guards, and foreign errors do not', async () => {
    copyFileSync(new URL('../../../api/client/errors.ts', import.meta.url), join(dir, 'errors.ts'));
    const copy = (await import(join(dir, 'errors.ts'))) as typeof import('../../../api/client/errors.js');
    const fields = { message: 'm', method: 'GET', path: '/', host: 'h', attempts: 1, retryHistory: [], retryable: true };
    const foreign = new copy.RateLimitError({ ...fields, retryAfterMs: 5 });
    expect(foreign instanceof ApiError).toBe(false);
    expect(isRateLimitError(foreign) && isApiError(foreign)).toBe(true);
    expect(isAuthenticationError(foreign)).toBe(false);
    const mismatch = new copy.TenantMismatchError(fields);
    expect(isPermissionDeniedError(mismatch) && isTenantMismatchError(mismatch)).toBe(true);
    const missing = new copy.NotFoundError(fields);
    expect(isNotFoundError(missing) && isApiError(missing) && !isPermissionDeniedError(missing)).toBe(true);
    expect(isParseError(new copy.ParseError({ ...fields, index: 2, issue: 'x' }))).toBe(true);
    expect(isPaginationError(new copy.PaginationError({ ...fields, problem: 'loop', link: undefined, pages: 2 }))).toBe(true);
    expect(isNotFoundError(foreign) || isParseError(missing)).toBe(false);
    // AbortSignal.timeout() rejects with a DOMException named TimeoutError: not ours.
    expect(isTimeoutError(new DOMException('t', 'TimeoutError'))).toBe(false);
    expect(isApiError(Object.assign(new Error('x'), { name: 'ApiError' }))).toBe(false);
  });
});
