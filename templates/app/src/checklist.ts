/**
 * The spec's debugging checklist (§7) as code: host and path reachable, key accepted, tenant
 * matches the key, scope covers each resource. One plain attempt per endpoint, no retries, so
 * each row shows exactly what the server answered (status, error code, request id).
 */
import type { Dispatcher } from 'undici';
import { type AttemptResult, sendAttempt } from './client/attempt.js';
import type { ApiKey } from './client/index.js';
import { type AuthScheme, ERROR_CODES, TENANT_RESOURCES, type TenantResource, endpointPath, joinUrl } from './contract/index.js';

export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface CheckRow {
  readonly id: string;
  readonly label: string;
  readonly status: CheckStatus;
  readonly detail: string;
}

export interface ChecklistInput {
  readonly baseUrl: string;
  readonly apiKey: ApiKey;
  readonly authScheme: AuthScheme;
  readonly tenant: string;
  readonly dispatcher: Dispatcher;
  readonly timeoutMs?: number;
}

const row = (id: string, label: string, status: CheckStatus, detail: string): CheckRow => ({ id, label, status, detail });

/** `HTTP 403 tenant_key_tenant_mismatch "…" (request id r-1)`: checklist step 4, status and payload. */
export function describeAnswer(result: AttemptResult): string {
  if (result.kind === 'failure') return `no HTTP answer: ${result.failure.kind} ${'code' in result.failure ? `${result.failure.code} ` : ''}(${result.failure.message})`;
  const c = result.classification;
  const code = 'code' in c && c.code !== undefined ? ` ${c.code}` : '';
  const message = 'message' in c && c.message !== undefined ? ` "${c.message}"` : '';
  const problem = c.kind === 'invalid_envelope' ? ` invalid envelope: ${c.detail}` : '';
  const id = result.requestId ? ` (request id ${result.requestId})` : '';
  return `HTTP ${result.status}${code}${message}${problem}${id}`;
}

function hostRows(docs: AttemptResult, baseUrl: string): CheckRow[] {
  const host = new URL(baseUrl).host;
  if (docs.kind === 'failure') {
    return [
      row('host', 'host reachable', 'fail', `${host}: ${describeAnswer(docs)}; check the host name, port and network`),
      row('path', 'base path answers (/docs)', 'skip', 'host not reachable'),
    ];
  }
  const path = docs.classification.kind === 'ok'
    ? row('path', 'base path answers (/docs)', 'pass', `${describeAnswer(docs)} from ${joinUrl(baseUrl, '/docs')}`)
    : row('path', 'base path answers (/docs)', 'fail', `${describeAnswer(docs)} from ${joinUrl(baseUrl, '/docs')}; the base URL must end in /api/v1`);
  return [row('host', 'host reachable', 'pass', `${host} answered HTTP ${docs.status}`), path];
}

function keyRow(index: AttemptResult | undefined): CheckRow {
  const label = 'key accepted (GET /)';
  if (!index) return row('key', label, 'skip', 'host not reachable');
  if (index.kind === 'response' && index.classification.kind === 'ok') return row('key', label, 'pass', describeAnswer(index));
  if (index.kind === 'response' && index.classification.kind === 'unauthorized') {
    return row('key', label, 'fail', `${describeAnswer(index)}: key rejected (invalid, revoked, or from the other environment)`);
  }
  return row('key', label, 'fail', describeAnswer(index));
}

function tenantRow(results: ReadonlyMap<TenantResource, AttemptResult>, tenant: string, key: CheckRow, apiKey: ApiKey): CheckRow {
  const label = `tenant matches key (${tenant})`;
  if (key.status !== 'pass') return row('tenant', label, 'skip', 'key not accepted');
  for (const result of results.values()) {
    if (result.kind === 'response' && result.classification.kind === 'tenant_mismatch') {
      return row('tenant', label, 'fail', `${describeAnswer(result)}: key ${apiKey.hint} is not assigned to tenant "${tenant}"; use that tenant's key or fix the tenant slug`);
    }
  }
  return row('tenant', label, 'pass', `no ${ERROR_CODES.tenantMismatch} on any tenant path`);
}

function scopeRow(resource: TenantResource, result: AttemptResult | undefined, gate: CheckRow): CheckRow {
  const label = `scope covers ${resource}`;
  if (gate.status !== 'pass' || !result) return row(`scope:${resource}`, label, 'skip', gate.status === 'fail' ? 'tenant mismatch' : 'key not accepted');
  if (result.kind === 'response' && result.classification.kind === 'ok') {
    const count = Array.isArray(result.classification.data) ? ` (${result.classification.data.length} items)` : '';
    return row(`scope:${resource}`, label, 'pass', `${describeAnswer(result)}${count}`);
  }
  if (result.kind === 'response' && result.classification.kind === 'insufficient_scope') {
    return row(`scope:${resource}`, label, 'fail', `${describeAnswer(result)}: the key's scope does not cover ${resource}`);
  }
  return row(`scope:${resource}`, label, 'fail', describeAnswer(result));
}

export async function runChecklist(input: ChecklistInput): Promise<CheckRow[]> {
  const base = { dispatcher: input.dispatcher, baseUrl: input.baseUrl, authScheme: input.authScheme, timeoutMs: input.timeoutMs ?? 10_000 };
  const docs = await sendAttempt({ ...base, endpoint: 'docs', path: endpointPath('docs') });
  const rows = hostRows(docs, input.baseUrl);
  const reachable = docs.kind === 'response';
  const index = reachable ? await sendAttempt({ ...base, endpoint: 'index', path: endpointPath('index'), key: input.apiKey }) : undefined;
  const key = keyRow(index);
  const results = new Map<TenantResource, AttemptResult>();
  if (key.status === 'pass') {
    for (const resource of TENANT_RESOURCES) {
      results.set(resource, await sendAttempt({ ...base, endpoint: resource, path: endpointPath(resource, { tenant: input.tenant }), key: input.apiKey }));
    }
  }
  const tenant = tenantRow(results, input.tenant, key, input.apiKey);
  const scopes = TENANT_RESOURCES.map((resource) => scopeRow(resource, results.get(resource), tenant));
  return [...rows, key, tenant, ...scopes];
}

export function checklistPassed(rows: readonly CheckRow[]): boolean {
  return rows.every((r) => r.status === 'pass');
}

export function formatTable(rows: readonly CheckRow[]): string {
  const width = Math.max(5, ...rows.map((r) => r.label.length));
  const lines = rows.map((r) => `${r.label.padEnd(width)}  ${r.status.toUpperCase().padEnd(6)}  ${r.detail}`);
  return [`${'CHECK'.padEnd(width)}  RESULT  DETAIL`, ...lines].join('\n');
}
