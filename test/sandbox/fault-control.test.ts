/**
 * `/-/faults` on a running sandbox: faults taken, changed and cleared without a restart, in
 * effect on the next request with the same keys; only with the token, from loopback, from no
 * other site; every answer an envelope; a refused change leaves the faults in force.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { authHeader, parseEnvelope } from '../../api/contract/index.js';
import { notLocal } from '../../lib/loopback.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

async function control(method: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(sandbox.control.url, {
    method,
    headers: { authorization: `Bearer ${sandbox.control.token}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.body.text();
  const parsed = parseEnvelope(text, { status: res.statusCode });
  expect(parsed, text).toMatchObject({ valid: true });
  const envelope = JSON.parse(text) as { ok: boolean; data?: { faults: string }; error?: { code: string; message: string } };
  return { status: res.statusCode, headers: res.headers, envelope };
}

async function clientsStatus(): Promise<number> {
  const h = authHeader('bearer', sandbox.key('nowak-test').key);
  const res = await request(`${sandbox.baseUrl}/tenants/rowery-nowak/clients`, { headers: { [h.name]: h.value } });
  await res.body.dump();
  return res.statusCode;
}

describe('the fault control of a running sandbox', () => {
  it('takes, changes and clears faults, in effect on the next request, the keys unchanged', async () => {
    const keys = sandbox.keys.map((k) => k.key);
    expect(await clientsStatus()).toBe(200);
    expect(await control('PUT', { faults: 'status:503@/tenants/*/clients' })).toMatchObject({
      status: 200,
      envelope: { ok: true, data: { faults: 'status:503@/tenants/*/clients' } },
    });
    expect(await clientsStatus()).toBe(503);
    expect((await control('PUT', { faults: 'rate-limit-storm:2' })).status).toBe(200);
    expect(await clientsStatus()).toBe(429);
    expect(await control('DELETE', undefined)).toMatchObject({ status: 200, envelope: { ok: true, data: { faults: '' } } });
    expect(await clientsStatus()).toBe(200);
    expect(sandbox.keys.map((k) => k.key)).toEqual(keys);
  });

  it('is never faulted itself: a reset on every path is cleared through it', async () => {
    await control('PUT', { faults: 'reset' });
    await expect(clientsStatus()).rejects.toThrow();
    expect((await control('DELETE', undefined)).status).toBe(200);
    expect(await clientsStatus()).toBe(200);
  });

  it.each([
    ['no token', { authorization: '' }, 401, 'unauthorized'],
    ['a wrong token', { authorization: 'Bearer not-the-token' }, 401, 'unauthorized'],
    ['a Host that is not loopback (DNS rebinding)', { host: 'evil.example' }, 403, 'bad_request'],
    ['an Origin of another site', { origin: 'http://evil.example' }, 403, 'bad_request'],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }, 403, 'bad_request'],
    ['Sec-Fetch-Site: same-site (another port of localhost)', { 'sec-fetch-site': 'same-site' }, 403, 'bad_request'],
    ['a form post (text/plain)', { 'content-type': 'text/plain' }, 415, 'bad_request'],
  ])('refuses %s with an envelope, the faults in force unchanged', async (_what, headers, status, code) => {
    await control('PUT', { faults: 'status:502@/tenants/*/clients' });
    const refused = await control('PUT', { faults: '' }, headers);
    expect(refused).toMatchObject({ status, envelope: { ok: false, error: { code } } });
    expect(refused.envelope.error?.message).not.toContain(sandbox.control.token);
    expect(await clientsStatus()).toBe(502);
    await control('DELETE', undefined);
  });

  it('refuses a bad spec naming the part at fault, the faults in force unchanged', async () => {
    await control('PUT', { faults: 'latency:1' });
    const bad = await control('PUT', { faults: 'status:503;teleport:1' });
    expect(bad).toMatchObject({ status: 400, envelope: { error: { code: 'bad_request' } } });
    expect(bad.envelope.error?.message).toContain('unknown fault kind "teleport"');
    expect(bad.envelope.error?.message).toContain('unchanged');
    expect(await control('PUT', 'not json')).toMatchObject({ status: 400 });
    expect(await control('PUT', { spec: 'status:503' })).toMatchObject({ status: 400 });
    expect(await clientsStatus()).toBe(200);
    expect(await control('GET', undefined)).toMatchObject({ status: 405, headers: { allow: 'PUT, DELETE' } });
    await control('DELETE', undefined);
  });

  it("shares no path with the API: the same path under /api/v1 is the API's 404", async () => {
    expect(sandbox.control.url).toBe(`${sandbox.origin}/-/faults`);
    const res = await request(`${sandbox.baseUrl}/-/faults`, { method: 'GET' });
    expect(res.statusCode).toBe(404);
    await res.body.dump();
  });
});

describe('notLocal', () => {
  const local = { host: '127.0.0.1:4010' };
  it.each([
    ['10.0.0.7', local, /loopback/],
    ['127.0.0.1', { host: 'sandbox.attacker.example:4010' }, /Host header/],
    ['127.0.0.1', {}, /Host header/],
    ['::ffff:127.0.0.1', { ...local, origin: 'null' }, /another origin/],
    ['::1', { host: '[::1]:4010', origin: 'http://[::1]:4011' }, /another origin/],
  ])('refuses %s with %j', (remoteAddress, headers, why) => {
    expect(notLocal({ remoteAddress, headers })).toMatch(why);
  });

  it.each([
    ['127.0.0.1', local],
    ['::1', { host: 'localhost:4010', origin: 'http://localhost:4010', 'sec-fetch-site': 'same-origin' }],
    ['127.0.0.1', { host: 'LOCALHOST', 'sec-fetch-site': 'none' }],
  ])('lets %s with %j through', (remoteAddress, headers) => {
    expect(notLocal({ remoteAddress, headers })).toBeUndefined();
  });
});
