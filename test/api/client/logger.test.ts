/** What the client logs and where: levels, REPAIR_API_LOG, the console line, your logger, the key never. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ClientOptions, LOG_LEVEL_ENV, createClient } from '../../../api/client/index.js';
import { BASE_URL, KEY, SECRET, envelopeError, envelopeOk, mockAgent } from './helpers.js';

const CLIENTS = '/api/v1/tenants/rowery-nowak/clients';
const agents: Array<{ close(): Promise<void> }> = [];
let savedEnv: string | undefined;
beforeEach(() => {
  savedEnv = process.env[LOG_LEVEL_ENV];
  delete process.env[LOG_LEVEL_ENV];
  vi.spyOn(Math, 'random').mockReturnValue(0);
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
  return { pool, client: createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant: 'rowery-nowak', dispatcher: agent, ...over }) };
}

function capture() {
  const lines: Array<{ level: string; message: string; fields?: object | undefined }> = [];
  const at = (level: string) => (message: string, fields?: object) => lines.push({ level, message, fields });
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

/** A 503 (retried) then a 404: one retry line, two attempt lines, and a thrown error. */
async function run(over: Partial<ClientOptions>): Promise<string[]> {
  const { logger, lines } = capture();
  const { pool, client: c } = client({ logger, ...over });
  pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_error', 'x'));
  pool.intercept({ path: CLIENTS }).reply(404, envelopeError('not_found', 'x'));
  await c.list('clients').catch(() => undefined);
  return lines.map((l) => `${l.level} ${l.message}`);
}

describe('levels', () => {
  it('by default one line per retry (failures are thrown, not logged); REPAIR_API_LOG=warn drops it, debug adds attempts; logLevel wins', async () => {
    const retry =
      'info repair-service: GET /tenants/rowery-nowak/clients got HTTP 503 internal_error; waiting 125 ms, then attempt 2 of 4 (up to 15000 ms)';
    expect(await run({})).toEqual([retry]);
    process.env[LOG_LEVEL_ENV] = 'warn';
    expect(await run({})).toEqual([]);
    process.env[LOG_LEVEL_ENV] = 'DEBUG';
    expect(await run({})).toEqual(['debug repair-service attempt', retry, 'debug repair-service attempt']);
    expect(await run({ logLevel: 'silent' })).toEqual([]);
  });

  it('a bad level names the option or the variable', () => {
    expect(() => client({ logLevel: 'verbose' as never })).toThrow(
      /option "logLevel" must be one of debug, info, warn, error, silent, got "verbose"/,
    );
    process.env[LOG_LEVEL_ENV] = 'loud';
    expect(() => client({})).toThrow(/environment variable REPAIR_API_LOG must be one of debug, info, warn, error, silent, got "loud"/);
  });
});

describe('where lines go', () => {
  it('your logger gets (message, fields); the fields say what happened, never the key', async () => {
    const { logger, lines } = capture();
    const { pool, client: c } = client({ logger, logLevel: 'debug' });
    pool.intercept({ path: CLIENTS }).reply(502, `<html>${SECRET}</html>`);
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await c.list('clients');
    expect(lines[1]).toMatchObject({
      level: 'info',
      message: expect.stringMatching(/^repair-service: GET \/tenants\/rowery-nowak\/clients got HTTP 502; waiting /),
      fields: { path: '/tenants/rowery-nowak/clients', attempt: 1, outcome: 'HTTP 502', basis: 'backoff' },
    });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('the console (the default) gets one human line per wait on stderr, printable and without the key', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { pool, client: c } = client({ maxRetries: 2, attemptTimeoutMs: 20_000 });
    pool.intercept({ path: CLIENTS }).reply(503, envelopeError('internal_\u001b[2J', 'x'), { headers: { 'retry-after': '1' } });
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await c.list('clients');
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]?.[0])).toBe(
      'repair-service: GET /tenants/rowery-nowak/clients got HTTP 503 internal_\\x1b[2J; waiting 1000 ms, then attempt 2 of 3 (up to 20000 ms)',
    );
    expect(String(error.mock.calls[0]?.[0])).not.toContain(SECRET);
  });

  it('debug lines on the console keep their fields as JSON', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { pool, client: c } = client({ logLevel: 'debug' });
    pool.intercept({ path: CLIENTS }).reply(200, envelopeOk([]));
    await c.list('clients');
    expect(String(error.mock.calls[0]?.[0])).toMatch(/^repair-service attempt \{"path":"\/tenants\/rowery-nowak\/clients"/);
  });
});
