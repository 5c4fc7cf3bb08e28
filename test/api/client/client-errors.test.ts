import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  createClient,
  isApiError,
  isAuthenticationError,
  isEnvelopeError,
  isInsufficientScopeError,
  isNotFoundError,
  isParseError,
  isPermissionDeniedError,
  isRateLimitError,
  isTenantMismatchError,
  isTimeoutError,
} from '../../../api/client/index.js';
import { isPaginationError } from '../../../api/client/paginate.js';
import { BASE_URL, KEY, SECRET, captureLogger, envelopeError, mockAgent } from './helpers.js';

const CLIENTS = '/api/v1/tenants/rowery-nowak/clients';
const agents: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

function setup() {
  const { agent, pool } = mockAgent();
  agents.push(agent);
  const { logger, lines } = captureLogger();
  const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant: 'rowery-nowak', dispatcher: agent, logger, logLevel: 'debug' });
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

describe('client: 401 and 403 are never retried; the error is the one report', () => {
  it('401 unauthorized -> AuthenticationError (kind unauthorized) with the Polish message verbatim, the request id and the whole path', async () => {
    const { pool, client, lines } = setup();
    pool
      .intercept({ path: CLIENTS })
      .reply(401, envelopeError('unauthorized', 'Nieprawidłowy klucz API'), { headers: { 'x-request-id': 'req-42' } });
    const error = await failure(client.list('clients'));
    expect(isAuthenticationError(error)).toBe(true);
    expect(error).toMatchObject({
      kind: 'unauthorized',
      status: 401,
      code: 'unauthorized',
      serverMessage: 'Nieprawidłowy klucz API',
      requestId: 'req-42',
      attempts: 1,
      retryable: false,
    });
    expect(error).toMatchObject({
      keyAlias: 'nowak-test',
      keyHint: KEY.hint,
      tenant: 'rowery-nowak',
      host: 'api.test',
      method: 'GET',
      path: '/tenants/rowery-nowak/clients',
    });
    expect(error.message).toBe('GET /tenants/rowery-nowak/clients failed: HTTP 401 unauthorized "Nieprawidłowy klucz API" (1 attempt)');
    // The client reports a failure by throwing it, never also by logging it: the caller prints it once.
    expect(lines.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
  });

  it('403 tenant_key_tenant_mismatch -> TenantMismatchError (kind tenant_mismatch), a PermissionDeniedError', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: CLIENTS }).reply(403, envelopeError('tenant_key_tenant_mismatch', 'Klucz należy do innego najemcy'));
    const error = await failure(client.list('clients'));
    expect(isTenantMismatchError(error) && isPermissionDeniedError(error)).toBe(true);
    expect(error.kind).toBe('tenant_mismatch');
    expect(error.attempts).toBe(1);
  });

  it('403 insufficient_scope -> InsufficientScopeError; other 403 codes -> PermissionDeniedError (kind forbidden)', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/logs' }).reply(403, envelopeError('insufficient_scope', 'Brak uprawnień'));
    pool.intercept({ path: '/api/v1/platform/tenants' }).reply(403, envelopeError('platform_key_required', 'Wymagany klucz platformy'));
    const scope = await failure(client.list('logs'));
    expect(isInsufficientScopeError(scope)).toBe(true);
    const platform = await failure(client.platform.get('tenants'));
    expect(isPermissionDeniedError(platform)).toBe(true);
    expect(isInsufficientScopeError(platform)).toBe(false);
    expect(platform.code).toBe('platform_key_required');
    expect([scope.kind, platform.kind]).toEqual(['insufficient_scope', 'forbidden']);
  });

  it('classifies by code, not by message: `unauthorized` on a 400 is still an AuthenticationError', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: CLIENTS }).reply(400, envelopeError('unauthorized', 'tenant_key_tenant_mismatch'));
    expect(isAuthenticationError(await failure(client.list('clients')))).toBe(true);
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
    const error = await failure(client.list('clients'));
    expect(isEnvelopeError(error) && error.problem).toBe(problem);
    expect(error.kind).toBe('invalid_envelope');
    expect(error.attempts).toBe(1);
  });

  it('a 3xx is not followed and not retried', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: CLIENTS }).reply(302, '', { headers: { location: 'http://evil.test/steal' } });
    const error = await failure(client.list('clients'));
    expect(error.name).toBe('ApiError');
    expect(error.kind).toBe('redirect');
    expect(error.status).toBe(302);
    expect(error.message).toContain('not followed');
    expect(error.attempts).toBe(1);
  });

  it('404 is a NotFoundError (an ApiError) with its code, not retried', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: CLIENTS }).reply(404, envelopeError('not_found', 'Nie znaleziono'));
    const error = await failure(client.list('clients'));
    expect(error).toMatchObject({ name: 'NotFoundError', kind: 'not_found', status: 404, code: 'not_found', attempts: 1 });
    expect(isNotFoundError(error) && isApiError(error)).toBe(true);
  });
});

describe('client: secrets never leave in errors or logs', () => {
  it('util.inspect and JSON.stringify of an error show the alias and hint, never the key', async () => {
    const { pool, client } = setup();
    // A hostile or buggy server echoing the key back in its message and body.
    pool.intercept({ path: CLIENTS }).reply(401, envelopeError('unauthorized', `zły klucz ${SECRET}`));
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/bikes' }).reply(200, `not json ${SECRET}`);
    for (const call of [client.list('clients'), client.list('bikes')]) {
      const error = await failure(call);
      const shown = [inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error), String(error), error.stack ?? ''];
      for (const text of shown) expect(text).not.toContain(SECRET);
      expect(JSON.stringify(error)).toContain('nowak-test');
    }
  });
});

describe('error guards work across two copies of errors.ts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'client-copy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('an error from a second copy passes the first copy’s guards, and foreign errors do not', async () => {
    copyFileSync(new URL('../../../api/client/errors.ts', import.meta.url), join(dir, 'errors.ts'));
    const copy = (await import(join(dir, 'errors.ts'))) as typeof import('../../../api/client/errors.js');
    const fields = { message: 'm', method: 'GET', path: '/', host: 'h', attempts: 1, retryHistory: [], retryable: true };
    const limited = { status: 429, retryAfterMs: 5, retryAfterBasis: 'hint', rateLimit: {} } as const;
    const foreign = copy.ApiError.from({ ...fields, kind: 'rate_limited', ...limited });
    expect(foreign.name).toBe('RateLimitError');
    expect(foreign instanceof ApiError).toBe(false);
    expect(isRateLimitError(foreign) && isApiError(foreign)).toBe(true);
    expect(isAuthenticationError(foreign)).toBe(false);
    const refusal = { status: 403, code: 'c', serverMessage: 'm' };
    const mismatch = copy.ApiError.from({ ...fields, ...refusal, kind: 'tenant_mismatch' });
    expect(isPermissionDeniedError(mismatch) && isTenantMismatchError(mismatch)).toBe(true);
    const missing = copy.ApiError.from({ ...fields, ...refusal, status: 404, kind: 'not_found' });
    expect(isNotFoundError(missing) && isApiError(missing) && !isPermissionDeniedError(missing)).toBe(true);
    expect(isParseError(copy.ApiError.from({ ...fields, status: 200, kind: 'parse_failed', index: 2, issue: 'x' }))).toBe(true);
    expect(isPaginationError(copy.ApiError.from({ ...fields, status: 200, kind: 'pagination_stopped' }))).toBe(true);
    expect(isNotFoundError(foreign) || isParseError(missing)).toBe(false);
    // AbortSignal.timeout() rejects with a DOMException named TimeoutError: not ours.
    expect(isTimeoutError(new DOMException('t', 'TimeoutError'))).toBe(false);
    expect(isApiError(Object.assign(new Error('x'), { name: 'ApiError' }))).toBe(false);
  });
});
