/** One test per fault kind, against a real sandbox; probabilities are pinned by an injected random. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ERROR_CODES, RATE_LIMIT_HEADERS, authHeader, parseEnvelope } from '../../api/contract/index.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';

let sandbox: RunningSandbox;
let nextRandom = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ random: () => nextRandom });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.setFaults('');
  nextRandom = 0;
});

async function get(path: string, alias = 'nowak-test') {
  const h = authHeader('bearer', sandbox.key(alias).key);
  const res = await request(`${sandbox.baseUrl}${path}`, { headers: { [h.name]: h.value } });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

const CLIENTS = '/tenants/rowery-nowak/clients';

describe('fault injection', () => {
  it('latency delays the answer and a pending one ends when the sandbox closes', async () => {
    sandbox.setFaults('latency:1');
    expect((await get(CLIENTS)).status).toBe(200);
    const own = await startSandbox({ faults: 'latency:600000' });
    const h = authHeader('x-api-key', own.key('nowak-test').key);
    const pending = request(`${own.baseUrl}${CLIENTS}`, { headers: { [h.name]: h.value } });
    let settled = false;
    void pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Time is what is tested here: still no answer a while later.
    await new Promise((r) => setTimeout(r, 100));
    expect(settled).toBe(false);
    await own.close();
    await expect(pending).rejects.toThrow();
  });

  it('rate-limit-storm answers 429 with Retry-After when given, without it otherwise', async () => {
    sandbox.setFaults('rate-limit-storm:2');
    const withHint = await get(CLIENTS);
    expect(withHint.status).toBe(429);
    expect(withHint.headers[RATE_LIMIT_HEADERS.retryAfter]).toBe('2');
    expect(parseEnvelope(withHint.text, { status: 429 })).toMatchObject({
      valid: true,
      envelope: { error: { code: ERROR_CODES.rateLimited } },
    });
    sandbox.setFaults('rate-limit-storm');
    const bare = await get(CLIENTS);
    expect(bare.status).toBe(429);
    expect(bare.headers[RATE_LIMIT_HEADERS.retryAfter]).toBeUndefined();
  });

  it.each([500, 502, 503])('status:%i answers that status with an error envelope', async (status) => {
    sandbox.setFaults(`status:${status}`);
    const res = await get(CLIENTS);
    expect(res.status).toBe(status);
    expect(parseEnvelope(res.text, { status })).toMatchObject({ valid: true, envelope: { ok: false } });
  });

  it('html-502 answers a proxy-style HTML page', async () => {
    sandbox.setFaults('html-502');
    const res = await get(CLIENTS);
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toBe('text/html');
    expect(parseEnvelope(res.text)).toMatchObject({ valid: false, problem: 'not_json' });
  });

  it.each([
    ['broken-envelope', 'ok_missing'],
    ['invalid-json', 'not_json'],
    ['ok-without-data', 'data_missing'],
    ['error-without-code', 'error_code_missing'],
  ])('%s gives a body the envelope parser rejects as %s', async (kind, problem) => {
    sandbox.setFaults(kind);
    const res = await get(CLIENTS);
    expect(parseEnvelope(res.text, { list: true })).toMatchObject({ valid: false, problem });
  });

  it('reset destroys the connection without an answer', async () => {
    sandbox.setFaults('reset@/tenants/*/clients');
    await expect(get(CLIENTS)).rejects.toThrow();
    expect(sandbox.requests().at(-1)).toMatchObject({ path: `/api/v1${CLIENTS}`, status: 0 });
    expect((await get('/tenants/rowery-nowak/bikes')).status).toBe(200);
  });

  it('stall sends headers and part of the body, then the body ends only when the sandbox closes', async () => {
    const own = await startSandbox({ faults: 'stall' });
    const h = authHeader('bearer', own.key('nowak-test').key);
    const res = await request(`${own.baseUrl}${CLIENTS}`, { headers: { [h.name]: h.value } });
    expect(res.statusCode).toBe(200);
    const body = res.body.text();
    let settled = false;
    void body.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Time is what is tested here: the body still open a while later.
    await new Promise((r) => setTimeout(r, 100));
    expect(settled).toBe(false);
    await own.close();
    await expect(body).rejects.toThrow();
  });

  it('oversized pads a valid envelope past the byte count', async () => {
    sandbox.setFaults('oversized:200000');
    const res = await get(CLIENTS);
    expect(Buffer.byteLength(res.text)).toBeGreaterThanOrEqual(200_000);
    expect(parseEnvelope(res.text, { status: 200, list: true })).toMatchObject({ valid: true });
  });

  it('isolation-breach lets a tenant key read another tenant, and only while set', async () => {
    const other = '/tenants/serwis-kowalski/clients';
    expect((await get(other)).status).toBe(403);
    sandbox.setFaults('isolation-breach');
    const breached = await get(other);
    expect(breached.status).toBe(200);
    expect(JSON.parse(breached.text)).toEqual(JSON.parse((await get(other, 'platform-test')).text));
    expect(JSON.parse(breached.text)).not.toEqual(JSON.parse((await get(CLIENTS)).text));
  });

  it('redirect answers 302 with the Location', async () => {
    sandbox.setFaults('redirect:https://example.com/login?next=1');
    const res = await get(CLIENTS);
    expect(res.status).toBe(302);
    expect(res.headers['location']).toBe('https://example.com/login?next=1');
  });

  it('path globs: * is one segment, ** any; rules outside the glob do not fire', async () => {
    sandbox.setFaults('status:503@/tenants/*/bikes');
    expect((await get('/tenants/rowery-nowak/bikes')).status).toBe(503);
    expect((await get(CLIENTS)).status).toBe(200);
    sandbox.setFaults('status:500@/tenants/**');
    expect((await get('/tenants/rowery-nowak/logs')).status).toBe(500);
    expect((await get('/')).status).toBe(200);
  });

  it('probability: a rule fires when random() is below it', async () => {
    sandbox.setFaults('status:500%0.5');
    nextRandom = 0.49;
    expect((await get(CLIENTS)).status).toBe(500);
    nextRandom = 0.5;
    expect((await get(CLIENTS)).status).toBe(200);
  });

  it('setFaults refuses a bad spec and keeps the old one', async () => {
    sandbox.setFaults('status:502');
    expect(() => sandbox.setFaults('teleport')).toThrow(/unknown fault kind "teleport"/);
    expect((await get(CLIENTS)).status).toBe(502);
  });
});
