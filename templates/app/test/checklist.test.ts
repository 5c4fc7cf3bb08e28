import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checklistPassed, formatChecklistTable, runChecklist } from '../src/repair-service/checklist/index.js';
import { ApiKey } from '../src/repair-service/client/index.js';
import { DEFAULTS } from '../src/config.js';
import { ERROR_CODES } from '../src/repair-service/contract/index.js';
import { HttpResponse, KEYS, OTHER_TENANT, http, mockApi, refusal, url } from './mock-api.js';

const api = mockApi();
const dispatcher = new Agent();
beforeAll(() => api.listen());
afterEach(() => api.resetHandlers());
afterAll(async () => {
  await dispatcher.close();
  await api.close();
});

function run(key: string, tenant = DEFAULTS.tenant) {
  return runChecklist({ baseUrl: api.baseUrl, apiKey: new ApiKey(key, 'TEST_KEY'), authScheme: DEFAULTS.authScheme, tenant, dispatcher });
}

function status(rows: Awaited<ReturnType<typeof run>>, id: string): string | undefined {
  return rows.find((r) => r.id === id)?.status;
}

describe('runChecklist', () => {
  it('passes every row when the key works for the tenant', async () => {
    const rows = await run(KEYS.tenant);
    expect(rows.map((r) => r.status)).toEqual(rows.map(() => 'pass'));
    expect(checklistPassed(rows)).toBe(true);
    expect(formatChecklistTable(rows)).toContain('scope covers logs');
  });

  it('fails the tenant row on tenant_key_tenant_mismatch and skips the scopes', async () => {
    const rows = await run(KEYS.tenant, OTHER_TENANT);
    const tenantRow = rows.find((r) => r.id === 'tenant');
    expect(tenantRow?.status).toBe('fail');
    expect(tenantRow?.detail).toContain(`403 ${ERROR_CODES.tenantMismatch}`);
    expect(status(rows, 'key')).toBe('pass');
    expect(status(rows, 'scope:clients')).toBe('skip');
    expect(formatChecklistTable(rows)).not.toContain(KEYS.tenant);
  });

  it('fails the key row on unauthorized from a tenant path', async () => {
    const rows = await run('rs_test_0123456789abcdef');
    expect(status(rows, 'key')).toBe('fail');
    expect(status(rows, 'tenant')).toBe('skip');
  });

  it('fails only the scope a key lacks', async () => {
    const rows = await run(KEYS.noLogs);
    expect(status(rows, 'scope:logs')).toBe('fail');
    expect(status(rows, 'scope:bikes')).toBe('pass');
    expect(checklistPassed(rows)).toBe(false);
  });

  it('never passes the tenant row when no tenant call got through', async () => {
    api.use(http.get(url('/tenants/:tenant/:resource'), () => refusal(502, 'bad_gateway')));
    const rows = await run(KEYS.tenant);
    expect(status(rows, 'tenant')).toBe('skip');
    expect(rows.find((r) => r.id === 'key')?.cause.kind).toBe('server_error');
    expect(checklistPassed(rows)).toBe(false);
  });

  it('fails the host row when nothing answers', async () => {
    api.use(http.all('*', () => HttpResponse.error()));
    const rows = await run(KEYS.tenant);
    expect(status(rows, 'host')).toBe('fail');
    expect(status(rows, 'key')).toBe('skip');
  });
});
