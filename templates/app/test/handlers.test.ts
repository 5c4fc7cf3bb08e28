import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/repair-service/client/index.js';
import { DEFAULTS } from '../src/config.js';
import { ERROR_CODES } from '../src/repair-service/contract/index.js';
import { type NextStep, handleApiError } from '../src/handlers.js';
import { BASE_URL, type MockApi, mockApi } from './mock-api.js';

const KEY = 'rs_test_0123456789abcdef';
const tenant = DEFAULTS.tenant;
let api: MockApi;

afterEach(async () => {
  await api.agent.close();
});

/** A failing call through the client, handled as src/index.ts does: once, by handleApiError. */
async function handled(call: (client: ReturnType<typeof createClient>) => Promise<unknown>) {
  api = mockApi();
  const lines: string[] = [];
  const steps: NextStep[] = [];
  const backOffs: (number | undefined)[] = [];
  const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, authScheme: DEFAULTS.authScheme, tenant, dispatcher: api.agent, maxRetries: 0 });
  const error = await call(client).then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  const step = await handleApiError(error, { report: (l) => void lines.push(l), onNeedsAttention: (s) => void steps.push(s), onBackOff: (ms) => void backOffs.push(ms) });
  return { step, lines, steps, backOffs };
}

describe('401/403/429: one report each, then the hook for the case', () => {
  it('401 unauthorized asks to fix the key, in one line that names the whole path and never the key', async () => {
    const { step, lines, steps } = await handled((client) => {
      api.error(`/tenants/${tenant}/clients`, 401, ERROR_CODES.unauthorized);
      return client.listClients();
    });
    expect(step.kind).toBe('fix_key');
    expect(steps.map((s) => s.kind)).toEqual(['fix_key']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`GET /tenants/${tenant}/clients failed: HTTP 401 unauthorized`);
    expect(lines[0]).not.toContain(KEY);
  });

  it('403 tenant_key_tenant_mismatch asks to fix the tenant', async () => {
    const { step, steps } = await handled((client) => {
      api.error(`/tenants/${tenant}/bikes`, 403, ERROR_CODES.tenantMismatch);
      return client.listBikes();
    });
    expect(step.kind).toBe('fix_tenant');
    expect(steps.map((s) => s.kind)).toEqual(['fix_tenant']);
  });

  it('403 insufficient_scope asks for a wider scope', async () => {
    const { step, steps } = await handled((client) => {
      api.error(`/tenants/${tenant}/logs`, 403, ERROR_CODES.insufficientScope);
      return client.listLogs();
    });
    expect(step.kind).toBe('request_scope');
    expect(steps.map((s) => s.kind)).toEqual(['request_scope']);
  });

  it('429 backs off for the time the server asked', async () => {
    const { step, backOffs, lines } = await handled((client) => {
      api.error(`/tenants/${tenant}/repairs`, 429, ERROR_CODES.rateLimited, { 'retry-after': '7' });
      return client.listRepairs();
    });
    expect(step.kind).toBe('retry_later');
    expect(backOffs).toEqual([7000]);
    expect(lines).toHaveLength(1);
  });
});
