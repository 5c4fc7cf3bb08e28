import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/repair-service/client/index.js';
import { TENANT_RESOURCES } from '../src/repair-service/contract/index.js';
import { DEFAULTS } from '../src/config.js';
import { type NextStep, handleApiError } from '../src/handlers.js';
import { KEYS, OTHER_TENANT, http, mockApi, rateLimited, url } from './mock-api.js';

const UNKNOWN_KEY = 'rs_test_0123456789abcdef';
const tenant = DEFAULTS.tenant;
const api = mockApi();
beforeAll(() => api.listen());
afterEach(() => api.resetHandlers());
afterAll(() => api.close());

/** A failing call through the client, handled as src/index.ts does: once, by handleApiError. */
async function handled(key: string, call: (client: ReturnType<typeof createClient>) => Promise<unknown>) {
  const lines: string[] = [];
  const steps: NextStep[] = [];
  const backOffs: number[] = [];
  const client = createClient({ baseUrl: api.baseUrl, apiKey: key, authScheme: DEFAULTS.authScheme, tenant, maxRetries: 0, proxy: false });
  const error = await call(client).then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  await client.close();
  const step = await handleApiError(error, { report: (l) => void lines.push(l), onNeedsAttention: (s) => void steps.push(s), onBackOff: (ms) => void backOffs.push(ms) });
  return { step, lines, steps, backOffs };
}

describe('401/403/429: one report each, then the hook for the case', () => {
  it('401 unauthorized asks to fix the key, in one line that names the whole path and the request id, never the key', async () => {
    const { step, lines, steps } = await handled(UNKNOWN_KEY, (client) => client.list('clients'));
    expect(step.kind).toBe('fix_key');
    expect(steps.map((s) => s.kind)).toEqual(['fix_key']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`GET /tenants/${tenant}/clients failed: HTTP 401 unauthorized`);
    expect(lines[0]).toMatch(/\(request mock-\d+\)/);
    expect(lines[0]).not.toContain(UNKNOWN_KEY);
  });

  it("403 tenant_key_tenant_mismatch (another tenant's path) asks to fix the tenant", async () => {
    const { step, steps } = await handled(KEYS.tenant, (client) => client.list('bikes', { tenant: OTHER_TENANT }));
    expect(step.kind).toBe('fix_tenant');
    expect(steps.map((s) => s.kind)).toEqual(['fix_tenant']);
  });

  it('403 insufficient_scope (a key without logs) asks for a wider scope', async () => {
    const { step, steps } = await handled(KEYS.noLogs, (client) => client.list('logs'));
    expect(step.kind).toBe('request_scope');
    expect(steps.map((s) => s.kind)).toEqual(['request_scope']);
  });

  it('429 backs off for the time the server asked', async () => {
    api.use(http.get(url('/tenants/:tenant/repairs'), () => rateLimited(7)));
    const { step, backOffs, lines } = await handled(KEYS.tenant, (client) => client.list('repairs'));
    expect(step.kind).toBe('retry_later');
    expect(backOffs).toEqual([7000]);
    expect(lines).toHaveLength(1);
  });
});

describe('the mock API (test/mock-api.ts)', () => {
  it('answers every endpoint of the contract in the envelope, with a request id and the rate-limit fields', async () => {
    const client = createClient({ baseUrl: api.baseUrl, apiKey: KEYS.platform, authScheme: DEFAULTS.authScheme, tenant, maxRetries: 0, proxy: false });
    const lists = await Promise.all(TENANT_RESOURCES.map((resource) => client.list(resource)));
    expect(lists.every((items) => items.length > 0)).toBe(true);
    const { response } = await client.index().withResponse();
    expect(response.requestId).toMatch(/^mock-\d+$/);
    expect(response.rateLimit.remaining).toBeTypeOf('number');
    await Promise.all([client.docs(), client.platform.get('tenants')]);
    await client.close();
  });

  it('answers a request no handler takes with a 501 naming it, and fails the test', async () => {
    const res = await fetch(`${api.baseUrl}/nowhere`);
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ ok: false, error: { code: 'not_mocked', message: 'GET /api/v1/nowhere: no handler in test/mock-api.ts' } });
    expect(() => api.resetHandlers()).toThrow('the mock API: GET /api/v1/nowhere has no handler (answered 501)');
  });
});
