import { afterEach, describe, expect, it } from 'vitest';
import { checklistPassed, formatChecklistTable, runChecklist } from '../src/repair-service/checklist/index.js';
import { ApiKey } from '../src/repair-service/client/index.js';
import { DEFAULTS } from '../src/config.js';
import { ERROR_CODES, TENANT_RESOURCES } from '../src/repair-service/contract/index.js';
import { BASE_URL, type MockApi, mockApi } from './mock-api.js';

const tenant = DEFAULTS.tenant;
const apiKey = new ApiKey('rs_test_0123456789abcdef', 'TEST_KEY');
let api: MockApi;

afterEach(async () => {
  await api.agent.close();
});

function run() {
  return runChecklist({ baseUrl: BASE_URL, apiKey, authScheme: DEFAULTS.authScheme, tenant, dispatcher: api.agent });
}

function status(rows: Awaited<ReturnType<typeof run>>, id: string): string | undefined {
  return rows.find((r) => r.id === id)?.status;
}

describe('runChecklist', () => {
  it('passes every row when the key works for the tenant', async () => {
    api = mockApi();
    api.ok('/docs', { endpoints: [] });
    for (const r of TENANT_RESOURCES) api.ok(`/tenants/${tenant}/${r}`, [{ id: 1 }]);
    const rows = await run();
    expect(rows.map((r) => r.status)).toEqual(rows.map(() => 'pass'));
    expect(checklistPassed(rows)).toBe(true);
    expect(formatChecklistTable(rows)).toContain('scope covers logs');
  });

  it('fails the tenant row on tenant_key_tenant_mismatch and skips the scopes', async () => {
    api = mockApi();
    api.ok('/docs', {});
    for (const r of TENANT_RESOURCES) api.error(`/tenants/${tenant}/${r}`, 403, ERROR_CODES.tenantMismatch);
    const rows = await run();
    const tenantRow = rows.find((r) => r.id === 'tenant');
    expect(tenantRow?.status).toBe('fail');
    expect(tenantRow?.detail).toContain(`403 ${ERROR_CODES.tenantMismatch}`);
    expect(status(rows, 'key')).toBe('pass');
    expect(status(rows, 'scope:clients')).toBe('skip');
    expect(formatChecklistTable(rows)).not.toContain(apiKey.reveal());
  });

  it('fails the key row on unauthorized from a tenant path', async () => {
    api = mockApi();
    api.ok('/docs', {});
    for (const r of TENANT_RESOURCES) api.error(`/tenants/${tenant}/${r}`, 401, ERROR_CODES.unauthorized);
    const rows = await run();
    expect(status(rows, 'key')).toBe('fail');
    expect(status(rows, 'tenant')).toBe('skip');
  });

  it('fails only the scope a key lacks', async () => {
    api = mockApi();
    api.ok('/docs', {});
    for (const r of TENANT_RESOURCES) {
      if (r === 'logs') api.error(`/tenants/${tenant}/${r}`, 403, ERROR_CODES.insufficientScope);
      else api.ok(`/tenants/${tenant}/${r}`, []);
    }
    const rows = await run();
    expect(status(rows, 'scope:logs')).toBe('fail');
    expect(status(rows, 'scope:bikes')).toBe('pass');
    expect(checklistPassed(rows)).toBe(false);
  });

  it('never passes the tenant row when no tenant call got through', async () => {
    api = mockApi();
    api.ok('/docs', {});
    for (const r of TENANT_RESOURCES) api.error(`/tenants/${tenant}/${r}`, 502, 'bad_gateway');
    const rows = await run();
    expect(status(rows, 'tenant')).toBe('skip');
    expect(rows.find((r) => r.id === 'key')?.cause.kind).toBe('server_error');
    expect(checklistPassed(rows)).toBe(false);
  });

  it('fails the host row when nothing answers', async () => {
    api = mockApi();
    const rows = await run();
    expect(status(rows, 'host')).toBe('fail');
    expect(status(rows, 'key')).toBe('skip');
  });
});
