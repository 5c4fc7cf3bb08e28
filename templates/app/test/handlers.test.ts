import { afterEach, describe, expect, it } from 'vitest';
import { type ClientLogger, createClient } from '../src/repair-service/client/index.js';
import { DEFAULTS } from '../src/config.js';
import { ERROR_CODES } from '../src/repair-service/contract/index.js';
import { type NextStep, createErrorHandlers, nextStep } from '../src/handlers.js';
import { BASE_URL, type MockApi, mockApi } from './mock-api.js';

const KEY = 'rs_test_0123456789abcdef';
const tenant = DEFAULTS.tenant;
let api: MockApi;

afterEach(async () => {
  await api.agent.close();
});

function setup() {
  api = mockApi();
  const lines: string[] = [];
  const steps: NextStep[] = [];
  const backOffs: (number | undefined)[] = [];
  const logger: ClientLogger = { warn: (m) => lines.push(m), error: (m) => lines.push(m) };
  const handlers = createErrorHandlers(logger, { onNeedsAttention: (s) => void steps.push(s), onBackOff: (ms) => void backOffs.push(ms) });
  const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, authScheme: DEFAULTS.authScheme, tenant, dispatcher: api.agent, handlers, maxRetries: 0, logger });
  return { client, lines, steps, backOffs };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('401/403/429 handlers', () => {
  it('401 unauthorized asks to fix the key', async () => {
    const { client, lines, steps } = setup();
    api.error(`/tenants/${tenant}/clients`, 401, ERROR_CODES.unauthorized);
    const error = await failure(client.listClients());
    expect(nextStep(error).kind).toBe('fix_key');
    expect(steps.map((s) => s.kind)).toEqual(['fix_key']);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('403 tenant_key_tenant_mismatch asks to fix the tenant', async () => {
    const { client, steps } = setup();
    api.error(`/tenants/${tenant}/bikes`, 403, ERROR_CODES.tenantMismatch);
    expect(nextStep(await failure(client.listBikes())).kind).toBe('fix_tenant');
    expect(steps.map((s) => s.kind)).toEqual(['fix_tenant']);
  });

  it('403 insufficient_scope asks for a wider scope', async () => {
    const { client, steps } = setup();
    api.error(`/tenants/${tenant}/logs`, 403, ERROR_CODES.insufficientScope);
    expect(nextStep(await failure(client.listLogs())).kind).toBe('request_scope');
    expect(steps.map((s) => s.kind)).toEqual(['request_scope']);
  });

  it('429 backs off for the time the server asked', async () => {
    const { client, backOffs } = setup();
    api.error(`/tenants/${tenant}/repairs`, 429, ERROR_CODES.rateLimited, { 'retry-after': '7' });
    const step = nextStep(await failure(client.listRepairs()));
    expect(step.kind).toBe('retry_later');
    expect(backOffs).toEqual([7000]);
  });
});
