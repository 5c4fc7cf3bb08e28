/** The opt-in parse hooks (parse.ts), withResponse() and typed results, against a MockAgent. */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type ClientOptions, createClient, isApiError, isParseError, nextStep } from '../../../api/client/index.js';
import { parseData, parseItems } from '../../../api/client/parse.js';
import { BASE_URL, JSON_HEADERS, KEY, SECRET, captureLogger, envelopeError, envelopeOk, mockAgent } from './helpers.js';

const REPAIRS = '/api/v1/tenants/rowery-nowak/repairs';
const agents: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

function setup(over: Partial<ClientOptions> = {}) {
  const { agent, pool } = mockAgent();
  agents.push(agent);
  const { logger } = captureLogger();
  const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant: 'rowery-nowak', dispatcher: agent, logger, ...over });
  return { pool, client };
}

const RepairSchema = z.object({ id: z.number(), status: z.string(), costPln: z.number().optional() });
type Repair = z.infer<typeof RepairSchema>;
const isRepair = (value: unknown): value is Repair =>
  typeof value === 'object' && value !== null && typeof (value as Repair).id === 'number' && typeof (value as Repair).status === 'string';

const repairs = [
  { id: 1, status: 'przyjęta', extra: 'x' },
  { id: 2, status: 'gotowa', costPln: 120 },
];

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('parse.ts: parseItems and parseData type and check what a call returned', () => {
  it('a zod schema per call: items are the schema’s output (unknown keys stripped), typed', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: REPAIRS }).reply(200, envelopeOk(repairs));
    const list = await parseItems(client.list('repairs'), RepairSchema);
    expectTypeOf(list).toEqualTypeOf<readonly Repair[]>();
    expect(list).toEqual([
      { id: 1, status: 'przyjęta' },
      { id: 2, status: 'gotowa', costPln: 120 },
    ]);
  });

  it('a type guard per call keeps the items as they are', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: REPAIRS }).reply(200, envelopeOk(repairs));
    const list = await parseItems(client.list('repairs'), isRepair);
    expectTypeOf(list).toEqualTypeOf<readonly Repair[]>();
    expect(list[0]).toBe(list[0]);
    expect(list).toEqual(repairs);
  });

  it('a failed item is a ParseError with its index and the validator’s words, never the item', async () => {
    const { pool, client } = setup();
    const secretish = { id: 'not-a-number', status: 'ok', note: `private note ${'z'.repeat(2000)}` };
    pool.intercept({ path: REPAIRS }).reply(200, envelopeOk([repairs[0], secretish]), { headers: { 'x-request-id': 'req-7' } });
    const error = await failure(parseItems(client.list('repairs'), RepairSchema));
    expect(isParseError(error)).toBe(true);
    if (!isParseError(error)) return;
    expect(error).toMatchObject({ kind: 'parse_failed', index: 1, status: 200, requestId: 'req-7', attempts: 1, retryable: false });
    expect(error.issue).toMatch(/^id: /);
    expect(error.message).toMatch(/GET \/tenants\/rowery-nowak\/repairs: item 1 failed the parse hook: id: /);
    expect(JSON.stringify(error)).not.toContain('private note');
    expect(error.message.length).toBeLessThan(400);
    expect(nextStep(error).kind).toBe('fix_parse');
  });

  it('a type guard that says no names itself; safeParse, parse and Standard Schema objects work too', async () => {
    const { pool, client } = setup();
    pool
      .intercept({ path: REPAIRS })
      .reply(200, envelopeOk([{ id: 1 }]))
      .times(4);
    const guard = await failure(parseItems(client.list('repairs'), isRepair));
    expect(isParseError(guard) && guard.issue).toBe('the type guard isRepair returned false');
    const thrower = {
      parse: (v: unknown) => {
        if ((v as Repair).status === undefined) throw new Error('status missing');
        return v as Repair;
      },
    };
    expect(isParseError(await failure(parseItems(client.list('repairs'), thrower)))).toBe(true);
    const safe = { safeParse: (v: unknown) => ({ success: true as const, data: { wrapped: v } }) };
    expect(await parseItems(client.list('repairs'), safe)).toEqual([{ wrapped: { id: 1 } }]);
    const standard = { '~standard': { version: 1, vendor: 'test', validate: () => ({ issues: [{ message: 'nope', path: ['status'] }] }) } };
    const std = await failure(parseItems(client.list('repairs'), standard));
    expect(isParseError(std) && std.issue).toBe('status: nope');
  });

  it('parseData checks the whole data of get() and platform.get(); a bad validator is refused before anything is read', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: '/api/v1/platform/tenants' }).reply(200, envelopeOk({ tenants: ['a'] }));
    const Tenants = z.object({ tenants: z.array(z.string()) });
    const data = await parseData(client.platform.get('tenants'), Tenants);
    expectTypeOf(data).toEqualTypeOf<{ tenants: string[] }>();
    expect(data.tenants).toEqual(['a']);
    expect(() => parseData(client.get('/docs'), 42 as never)).toThrow(/the validator must be a schema with safeParse\(\) or parse\(\)/);
  });
});

describe('withResponse()', () => {
  it('gives data, status, headers without credentials, the request id and rate-limit state', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/bikes' }).reply(200, envelopeOk([{ id: 1 }]), {
      headers: {
        ...JSON_HEADERS,
        'x-request-id': 'req-9',
        'ratelimit-limit': '600',
        'ratelimit-remaining': '599',
        'ratelimit-reset': '42',
        'x-api-key': 'echoed',
        'set-cookie': 's=1',
      },
    });
    const promise = client.list('bikes');
    expect(promise).toBeInstanceOf(Promise);
    const { data, response } = await promise.withResponse();
    expect(data).toEqual([{ id: 1 }]);
    expect(response).toMatchObject({
      status: 200,
      requestId: 'req-9',
      method: 'GET',
      path: '/tenants/rowery-nowak/bikes',
      attempts: 1,
      rateLimit: { limit: 600, remaining: 599, resetMs: 42_000 },
    });
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['x-api-key']).toBeUndefined();
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('counts the attempts a retried call took, and rejects with the error when the call fails', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: '/api/v1/' }).reply(503, envelopeError('internal_error', 'x'));
    pool.intercept({ path: '/api/v1/' }).reply(200, envelopeOk({ docs: '/docs' }));
    const { response } = await client.index().withResponse();
    expect(response.attempts).toBe(2);
    pool.intercept({ path: '/api/v1/tenants/rowery-nowak/logs' }).reply(403, envelopeError('insufficient_scope', 'x'));
    await expect(client.list('logs').withResponse()).rejects.toMatchObject({ name: 'InsufficientScopeError' });
    await expect(client.list('logs', { tenant: '' }).withResponse()).rejects.toThrow(/"tenant"/);
  });

  it('the key is never in a response, even when the server echoes it', async () => {
    const { pool, client } = setup();
    pool.intercept({ path: '/api/v1/docs' }).reply(200, envelopeOk({}), { headers: { 'x-echo': SECRET } });
    const { response } = await client.docs().withResponse();
    expect(JSON.stringify(response)).not.toContain(SECRET);
  });
});
