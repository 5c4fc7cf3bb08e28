/**
 * One checklist, two tools: a generated project's `npm run check` (its shipped copy of
 * api/checklist) and `repairmon probe` (the diagnosis report) are fed the same recorded
 * answers and must show the same rows: same ids, same status, decided on the same call.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChecklistRow, reproduceCall } from '../../../api/checklist/index.js';
import { type CallRecord, type Observations } from '../../../diagnose/engine.js';
import type { AttemptResult } from '../../../api/client/single-attempt.js';
import { TENANT_RESOURCES, type TenantResource } from '../../../api/contract/index.js';
import { TOOLKIT_DIR } from '../../../generators/app/layout.js';
import { shippedFiles } from '../../../generators/app/shipped.js';
import { BASE, type Answer, err, ok, refused, report, response, tenantKeyApi } from '../../helpers/diagnose-fixtures.js';

const ROOT = join(import.meta.dirname, '../../..');
const TENANT = 'rowery-nowak';
const html502 = (endpoint: TenantResource | 'docs') =>
  response(502, '<html><body>Bad Gateway</body></html>', endpoint, { 'content-type': 'text/html' });
const timeout = (): AttemptResult => ({
  kind: 'failure',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  failure: { kind: 'timeout', phase: 'headers', message: 'no answer within 5000 ms' },
  timings: { headersMs: undefined, totalMs: 5000 },
});
const untrusted = (): AttemptResult => ({
  kind: 'failure',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  failure: { kind: 'tls', code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', message: 'unable to verify the first certificate' },
  timings: { headersMs: undefined, totalMs: 3 },
});
const everyResource = (answer: (r: TenantResource) => AttemptResult): Record<string, () => AttemptResult> =>
  Object.fromEntries(TENANT_RESOURCES.map((r) => [`scope:${r}`, () => answer(r)]));

/** Recorded situations support meets, each a full set of answers. */
const SITUATIONS: Readonly<Record<string, Answer>> = {
  healthy: tenantKeyApi(TENANT),
  'key rejected (401)': tenantKeyApi(
    TENANT,
    everyResource((r) => err(401, 'unauthorized', r)),
  ),
  'key rejected with 403 unauthorized': tenantKeyApi(
    TENANT,
    everyResource((r) => err(403, 'unauthorized', r)),
  ),
  'another tenant': tenantKeyApi('serwis-kowalski'),
  'narrow scope': tenantKeyApi(TENANT, { 'scope:logs': () => err(403, 'insufficient_scope', 'logs') }),
  'every tenant call 502 (envelope)': tenantKeyApi(
    TENANT,
    everyResource((r) => err(502, 'internal_error', r)),
  ),
  'every call an HTML 502': (c) => (c.id === 'docs' || c.id.startsWith('scope:') ? html502(c.endpoint as TenantResource) : ok(c.endpoint)),
  'one resource 502': tenantKeyApi(TENANT, { 'scope:bikes': () => html502('bikes') }),
  '429 storm': tenantKeyApi(
    TENANT,
    everyResource((r) => err(429, 'rate_limited', r, { 'retry-after': '30' })),
  ),
  '/docs HTML 502, key revoked': (c) =>
    c.id === 'docs' ? html502('docs') : c.id.startsWith('scope:') ? err(401, 'unauthorized', c.endpoint) : ok(c.endpoint),
  '/docs hangs, key fine': (c) => (c.id === 'docs' ? timeout() : ok(c.endpoint)),
  'tenant not found (404)': tenantKeyApi(
    TENANT,
    everyResource((r) => err(404, 'not_found', r)),
  ),
  'host refused': () => refused(),
  'certificate not trusted': () => untrusted(),
  '429 on one resource': tenantKeyApi(TENANT, { 'scope:bikes': () => err(429, 'rate_limited', 'bikes', { 'retry-after': '30' }) }),
  // A slug the API will not take (the sandbox's reading: 400 invalid_tenant_slug, which it tells a platform key).
  'slug refused (400)': tenantKeyApi(
    TENANT,
    everyResource((r) => err(400, 'invalid_tenant_slug', r)),
  ),
};

/** What `npm run check`'s plan records for these answers: /docs, then each resource unless /docs showed the host unreachable. */
function observations(answer: Answer): Observations {
  const records = new Map<string, CallRecord>();
  const record = (call: CallRecord['call']) => {
    const result = answer(call);
    records.set(call.id, { call, url: `${BASE}${call.path}`, result, attempts: result ? 1 : 0 });
    return result;
  };
  const docs = record({ id: 'docs', endpoint: 'docs', path: '/docs', auth: 'none' });
  if (docs?.kind !== 'failure' || docs.failure.kind === 'timeout') {
    for (const r of TENANT_RESOURCES) record({ id: `scope:${r}`, endpoint: r, path: `/tenants/${TENANT}/${r}`, auth: 'bearer' });
  }
  return records;
}

let project: string;
let generatedEvaluate: (input: { baseUrl: string; tenant: string | undefined; observations: Observations }) => ChecklistRow[];

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'generated-checklist-'));
  for (const file of shippedFiles(ROOT)) {
    mkdirSync(dirname(join(project, file.path)), { recursive: true });
    writeFileSync(join(project, file.path), file.contents);
  }
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
  ({ evaluateChecklist: generatedEvaluate } = (await import(
    join(project, TOOLKIT_DIR, 'checklist/index.ts')
  )) as typeof import('../../../api/checklist/index.js'));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the generated check and repairmon probe evaluate the same answers the same way', () => {
  it.each(Object.keys(SITUATIONS))('%s', (name) => {
    const answer = SITUATIONS[name]!;
    const generated = generatedEvaluate({ baseUrl: BASE, tenant: TENANT, observations: observations(answer) });
    const diagnosis = report({ answer, tenant: TENANT });
    expect(generated.map((r) => r.id)).toEqual(['host', 'path', 'key', 'tenant', ...TENANT_RESOURCES.map((r) => `scope:${r}`)]);
    for (const row of generated) {
      const probed = diagnosis.checks.find((c) => c.check === row.id);
      expect(probed, `${name}: probe has no ${row.id} row`).toBeDefined();
      expect(probed!.status, `${name}: ${row.id} (${row.detail})`).toBe(row.status);
      if (row.status !== 'skip' && row.evidence !== undefined) {
        const result = observations(answer).get(row.evidence === 'docs' ? 'docs' : `scope:${row.evidence}`)?.result;
        expect(probed!.httpStatus, `${name}: ${row.id} evidence`).toBe(result?.kind === 'response' ? result.status : undefined);
      }
    }
  });

  it('the situations cover every status and the causes the issue named', () => {
    const rows = Object.values(SITUATIONS).flatMap((answer) =>
      generatedEvaluate({ baseUrl: BASE, tenant: TENANT, observations: observations(answer) }),
    );
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['pass', 'fail', 'skip']));
    const causes = new Set(rows.filter((r) => r.status === 'fail').map((r) => r.cause.kind));
    for (const kind of [
      'unauthorized',
      'tenant_mismatch',
      'insufficient_scope',
      'server_error',
      'rate_limited',
      'connection_error',
      'not_found',
    ])
      expect(causes).toContain(kind);
  });

  it('never passes the tenant row when every tenant call failed with a 5xx (the old disagreement)', () => {
    const rows = generatedEvaluate({
      baseUrl: BASE,
      tenant: TENANT,
      observations: observations(SITUATIONS['every tenant call 502 (envelope)']!),
    });
    expect(rows.find((r) => r.id === 'tenant')?.status).not.toBe('pass');
  });

  it('the path row, decided by a tenant call when /docs hangs, names the route as the spec writes it', () => {
    const rows = generatedEvaluate({ baseUrl: BASE, tenant: TENANT, observations: observations(SITUATIONS['/docs hangs, key fine']!) });
    expect(rows.find((r) => r.id === 'path')?.detail).toMatch(/envelope from \/tenants\/\{tenant\}\/clients/);
  });

  it('a broken /docs never hides a revoked key', () => {
    const rows = generatedEvaluate({
      baseUrl: BASE,
      tenant: TENANT,
      observations: observations(SITUATIONS['/docs HTML 502, key revoked']!),
    });
    expect(rows.find((r) => r.id === 'key')).toMatchObject({ status: 'fail', cause: { kind: 'unauthorized' } });
  });

  it('a slug the API refuses (400 on every tenant path): the tenant row fails naming the slug; the key is not blamed', () => {
    const rows = generatedEvaluate({ baseUrl: BASE, tenant: TENANT, observations: observations(SITUATIONS['slug refused (400)']!) });
    expect(rows.find((r) => r.id === 'key')).toMatchObject({ status: 'skip', detail: expect.stringMatching(/: not decided; see tenant$/) });
    expect(rows.find((r) => r.id === 'tenant')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(
        /^HTTP 400 invalid_tenant_slug .*: the API refuses every path of tenant "rowery-nowak"; check the tenant slug$/,
      ),
    });
    for (const r of TENANT_RESOURCES)
      expect(rows.find((row) => row.id === `scope:${r}`)).toMatchObject({ status: 'skip', detail: 'tenant refused' });
  });

  it('a server fault on one resource fails its scope row saying it is not the scope', () => {
    const rows = generatedEvaluate({ baseUrl: BASE, tenant: TENANT, observations: observations(SITUATIONS['one resource 502']!) });
    expect(rows.find((r) => r.id === 'scope:bikes')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^HTTP 502 .*: a server fault, not the scope; run again later$/),
    });
  });

  it('a 429 on one resource leaves its scope undecided, says to wait, and step 5 repeats that call', () => {
    const rows = generatedEvaluate({ baseUrl: BASE, tenant: TENANT, observations: observations(SITUATIONS['429 on one resource']!) });
    expect(rows.find((r) => r.id === 'scope:bikes')).toMatchObject({
      status: 'skip',
      evidence: 'bikes',
      cause: { kind: 'not_checked', because: 'rate limited' },
      detail: expect.stringMatching(/^HTTP 429 rate_limited .*: not decided; run again later \(Retry-After: 30\)$/),
    });
    expect(rows.filter((r) => r.id !== 'scope:bikes').every((r) => r.status === 'pass')).toBe(true);
    expect(reproduceCall(rows, 'bearer', TENANT)).toMatchObject({ path: `/tenants/${TENANT}/bikes`, auth: 'bearer' });
  });

  it('step 5 repeats the call the first failed row was decided on; clients when no row names one', () => {
    const rowsOf = (name: string) => generatedEvaluate({ baseUrl: BASE, tenant: TENANT, observations: observations(SITUATIONS[name]!) });
    expect(reproduceCall(rowsOf('narrow scope'), 'x-api-key', TENANT)).toMatchObject({
      path: `/tenants/${TENANT}/logs`,
      auth: 'x-api-key',
    });
    expect(reproduceCall(rowsOf('every call an HTML 502'), 'bearer', TENANT)).toMatchObject({ path: '/docs', auth: 'none' });
    expect(reproduceCall(rowsOf('healthy'), 'bearer', TENANT)).toMatchObject({ path: `/tenants/${TENANT}/clients` });
    // A failed row before an undecided one, whatever their order.
    const both = tenantKeyApi(TENANT, {
      'scope:bikes': () => err(429, 'rate_limited', 'bikes'),
      'scope:logs': () => err(403, 'insufficient_scope', 'logs'),
    });
    const rows = generatedEvaluate({ baseUrl: BASE, tenant: TENANT, observations: observations(both) });
    expect(reproduceCall(rows, 'bearer', TENANT)).toMatchObject({ path: `/tenants/${TENANT}/logs` });
  });

  it('an untrusted certificate: the host row names the CA, and the rows after it say the host was not reached', () => {
    const rows = generatedEvaluate({ baseUrl: BASE, tenant: TENANT, observations: observations(SITUATIONS['certificate not trusted']!) });
    expect(rows[0]).toMatchObject({ id: 'host', status: 'fail', cause: { kind: 'tls_error' } });
    expect(rows[0]!.detail).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE .*; certificate not trusted: give its CA$/);
    for (const row of rows.slice(1)) expect(row, row.id).toMatchObject({ status: 'skip', detail: 'host not reachable' });
    // Other TLS failures get their own advice, as repairmon probe gives it.
    const tls = (code: string) =>
      generatedEvaluate({
        baseUrl: BASE,
        tenant: TENANT,
        observations: observations(() => ({ ...untrusted(), failure: { kind: 'tls', code, message: code } })),
      })[0]!.detail;
    expect(tls('ERR_SSL_WRONG_VERSION_NUMBER')).toMatch(/that port does not speak HTTPS; is the base URL http:\/\/\?$/);
    expect(tls('CERT_HAS_EXPIRED')).toMatch(/the certificate has expired$/);
    expect(tls('ERR_TLS_CERT_ALTNAME_INVALID')).toMatch(/the certificate is for another host name$/);
  });
});
