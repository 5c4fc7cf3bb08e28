/** The logger adapter: pino (fields first), console, hand-written loggers, levels and REPAIR_API_LOG. */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ClientOptions, LOG_LEVEL_ENV, consoleLogger, createClient, defaultErrorHandlers } from '../../../api/client/index.js';
import { createLogger, detectArgOrder } from '../../../api/client/logger.js';
import { BASE_URL, KEY, SECRET, envelopeError, envelopeOk, instantClock, mockAgent } from './helpers.js';

const CLIENTS = '/api/v1/tenants/rowery-nowak/clients';
const agents: Array<{ close(): Promise<void> }> = [];
let savedEnv: string | undefined;
beforeEach(() => {
  savedEnv = process.env[LOG_LEVEL_ENV];
  delete process.env[LOG_LEVEL_ENV];
});
afterEach(async () => {
  if (savedEnv === undefined) delete process.env[LOG_LEVEL_ENV];
  else process.env[LOG_LEVEL_ENV] = savedEnv;
  vi.restoreAllMocks();
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

function client(over: Partial<ClientOptions>) {
  const { agent, pool } = mockAgent();
  agents.push(agent);
  return { pool, client: createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant: 'rowery-nowak', dispatcher: agent, clock: instantClock().clock, random: () => 0, ...over }) };
}

/** A real pino logger writing JSON lines into an array. */
function pinoInto(level = 'debug') {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

describe('pino', () => {
  it('receives (fields, message): every field arrives as a field, the key never', async () => {
    const { logger, lines } = pinoInto();
    expect(detectArgOrder(logger)).toBe('fields-first');
    const { pool, client: c } = client({ logger });
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', `awaria ${SECRET}`));
    pool.intercept({ path: CLIENTS }).reply(401, envelopeError('unauthorized', `zły klucz ${SECRET}`), { headers: { 'x-request-id': 'req-1' } });
    await c.listClients().catch(() => undefined);
    const retry = lines.find((l) => l['msg'] === 'repair-service retry');
    expect(retry).toMatchObject({ level: 30, path: '/tenants/rowery-nowak/clients', attempt: 1, outcome: 'HTTP 503 internal_error', basis: 'backoff' });
    const refused = lines.find((l) => l['event'] === 'auth_error');
    expect(refused).toMatchObject({ level: 40, status: 401, code: 'unauthorized', requestId: 'req-1', keyAlias: 'nowak-test', tenant: 'rowery-nowak', nextStep: 'fix_key' });
    expect(refused?.['msg']).toBe('AuthenticationError 401 unauthorized GET /tenants/rowery-nowak/clients (request req-1): use a current key of this environment');
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('a pino child logger and defaultErrorHandlers(pino) keep fields too', () => {
    const { logger, lines } = pinoInto();
    const child = logger.child({ component: 'repairs' });
    const log = createLogger(child, { level: 'debug', order: detectArgOrder(child), keys: [KEY] });
    log.warn(`message with ${SECRET}`, { a: 1, nested: { secret: SECRET } });
    expect(lines[0]).toMatchObject({ component: 'repairs', a: 1, msg: `message with [REDACTED ${KEY.hint}]`, nested: { secret: `[REDACTED ${KEY.hint}]` } });
    expect(Object.keys(defaultErrorHandlers(logger))).toContain('onNotFound');
  });
});

describe('other loggers', () => {
  it('the console (ours or `console` itself) writes one line to stderr: the message, then only the fields it does not show', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { pool, client: c } = client({ logger: console });
    pool.intercept({ path: CLIENTS }).reply(403, envelopeError('tenant_key_tenant_mismatch', 'x'));
    await c.listClients().catch(() => undefined);
    expect(error).toHaveBeenCalledTimes(1);
    const line = String(error.mock.calls[0]?.[0]);
    expect(line).toBe(`TenantMismatchError 403 tenant_key_tenant_mismatch GET /tenants/rowery-nowak/clients: use that tenant's key or the right slug {"keyAlias":"nowak-test","nextStep":"fix_tenant"}`);
  });

  it('a hand-written (fields, message) logger is recognised when told, a (message, fields) one by default; either order may be called', () => {
    const seen: unknown[][] = [];
    const fieldsFirst = { warn: (...args: unknown[]) => seen.push(args), error: (...args: unknown[]) => seen.push(args) };
    const log = createLogger(fieldsFirst, { level: 'debug', order: 'fields-first', keys: [] });
    log.warn('m', { a: 1 });
    (log.warn as unknown as (f: object, m: string) => void)({ b: 2 }, 'n');
    const plain = createLogger(fieldsFirst, { level: 'debug', order: detectArgOrder(fieldsFirst), keys: [] });
    plain.warn('o', { c: 3 });
    plain.error('p');
    expect(seen).toEqual([[{ a: 1 }, 'm'], [{ b: 2 }, 'n'], ['o', { c: 3 }], ['p']]);
  });
});

describe('levels', () => {
  function capture() {
    const lines: string[] = [];
    const at = (level: string) => (message: string) => lines.push(`${level} ${message}`);
    return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
  }

  async function run(over: Partial<ClientOptions>): Promise<string[]> {
    const { logger, lines } = capture();
    const { pool, client: c } = client({ logger, ...over });
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', 'x'));
    pool.intercept({ path: CLIENTS }).reply(404, envelopeError('not_found', 'x'));
    await c.listClients().catch(() => undefined);
    return lines.map((l) => l.split(' ').slice(0, 3).join(' '));
  }

  it('your logger gets info and up by default; REPAIR_API_LOG=debug adds attempts; silent drops all; logLevel wins', async () => {
    expect(await run({})).toEqual(['info repair-service retry', 'warn NotFoundError 404']);
    process.env[LOG_LEVEL_ENV] = 'debug';
    expect(await run({})).toEqual(['debug repair-service attempt', 'info repair-service retry', 'debug repair-service attempt', 'warn NotFoundError 404']);
    process.env[LOG_LEVEL_ENV] = 'silent';
    expect(await run({})).toEqual([]);
    expect(await run({ logLevel: 'warn' })).toEqual(['warn NotFoundError 404']);
  });

  it('the console defaults to warn; a bad level names the option or the variable', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { pool, client: c } = client({ logger: consoleLogger() });
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', 'x'));
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await c.listClients();
    expect(error).not.toHaveBeenCalled();
    expect(() => client({ logLevel: 'verbose' as never })).toThrow(/option "logLevel" must be one of debug, info, warn, error, silent, got "verbose"/);
    process.env[LOG_LEVEL_ENV] = 'loud';
    expect(() => client({})).toThrow(/environment variable REPAIR_API_LOG must be one of debug, info, warn, error, silent, got "loud"/);
  });
});
