/**
 * The verdict from recorded answers: headlined by the cause the checklist core read, with the
 * first failing row as evidence and the step only as secondary information.
 */
import { describe, expect, it } from 'vitest';
import { TENANT_RESOURCES } from '../../api/contract/index.js';
import type { AttemptFailure, AttemptResult } from '../../api/client/single-attempt.js';
import type { DiagnosisVerdict } from '../../diagnose/types.js';
import { VERDICT_KINDS } from '../../diagnose/verdict-types.js';
import { HEADLINES } from '../../diagnose/verdict-words.js';
import { type Answer, type PacedScenario, err, ok, probeRun, refused, response, tenantKeyApi } from './fixtures.js';

const T = 'rowery-nowak';
const everyResource = (answer: () => AttemptResult): Record<string, () => AttemptResult> => Object.fromEntries(TENANT_RESOURCES.map((r) => [`scope:${r}`, answer]));
const html502 = (): AttemptResult => response(502, '<html><body>Bad Gateway</body></html>', 'clients', { 'content-type': 'text/html' });
const failure = (f: AttemptFailure['failure']): AttemptFailure => ({ kind: 'failure', traceId: '4bf92f3577b34da6a3ce929d0e0e4736', failure: f, timings: { headersMs: undefined, totalMs: 5000 } });
const timeout = () => failure({ kind: 'timeout', phase: 'headers', message: 'slow' });
const revokedBehind = (docs: () => AttemptResult): Answer => (c) => (c.id === 'docs' ? docs() : c.path.startsWith('/tenants/') || c.id === 'index' ? err(401, 'unauthorized', c.endpoint) : err(401, 'unauthorized', 'platform'));

function verdict(s: PacedScenario): DiagnosisVerdict & { exitCode: number } {
  const { report } = probeRun(s);
  expect(report.verdict.headline).toBe(HEADLINES[report.verdict.kind]);
  expect(report.verdict.summary.startsWith(`${report.verdict.headline}: `)).toBe(true);
  expect(report.verdict.next.length).toBeGreaterThan(10);
  return { ...report.verdict, exitCode: report.exitCode };
}

/** Situation -> expected kind, the step the evidence names, and the details that matter. */
const SITUATIONS: readonly [string, PacedScenario, Record<string, unknown>][] = [
  ['good tenant key', { answer: tenantKeyApi(T), tenant: T }, { kind: 'ok', exitCode: 0 }],
  ['429 storm on the tenant paths', { answer: tenantKeyApi(T, everyResource(() => err(429, 'rate_limited', 'clients', { 'retry-after': '30' }))), tenant: T }, { kind: 'rate_limited', retryAfterS: 30, stopped: 'too_long', keyed: true, evidence: { step: 'key', check: 'key' } }],
  ['429 on / only', { answer: tenantKeyApi(T, { index: () => err(429, 'rate_limited', 'index', { 'retry-after': '60' }) }), tenant: T }, { kind: 'rate_limited', evidence: { step: 'host', check: 'index' } }],
  ['429 on keyless /docs', { answer: (c) => err(429, 'rate_limited', c.endpoint, { 'retry-after': '3' }), tenant: T }, { kind: 'rate_limited', keyed: false, stopped: 'still_limited' }],
  ['429 without any hint', { answer: tenantKeyApi(T, { 'scope:clients': () => err(429, 'rate_limited', 'clients') }), tenant: T }, { kind: 'rate_limited', retryAfterS: undefined, stopped: 'no_hint' }],
  ['one resource behind an HTML 502', { answer: tenantKeyApi(T, { 'scope:bikes': html502 }), tenant: T }, { kind: 'server_error', status: 502, html: true, evidence: { step: 'scope', check: 'scope:bikes' } }],
  ['one resource 502 from the API', { answer: tenantKeyApi(T, { 'scope:bikes': () => err(502, 'internal_error', 'bikes') }), tenant: T }, { kind: 'server_error', status: 502, html: false, code: 'internal_error' }],
  ['a hanging host', { answer: () => timeout(), tenant: T }, { kind: 'timeout', phase: 'headers', evidence: { step: 'host', check: 'host' } }],
  ['connection refused', { answer: () => refused(), tenant: T }, { kind: 'host_unreachable', how: 'refused', code: 'ECONNREFUSED' }],
  ['no DNS', { answer: () => failure({ kind: 'connection', code: 'ENOTFOUND', message: '' }), tenant: T }, { kind: 'host_unreachable', how: 'dns' }],
  ['https on a plain port', { answer: () => failure({ kind: 'tls', code: 'ERR_SSL_WRONG_VERSION_NUMBER', message: '' }), tenant: T }, { kind: 'host_unreachable', how: 'tls' }],
  ['connections reset on the tenant paths', { answer: tenantKeyApi(T, everyResource(() => failure({ kind: 'connection', code: 'ECONNRESET', message: '' }))), tenant: T }, { kind: 'no_answer', code: 'ECONNRESET' }],
  ['base path without /api/v1', { answer: (c) => response(404, '<html>Not Found</html>', c.endpoint, { 'content-type': 'text/html' }), baseUrl: 'http://127.0.0.1:1234/api', tenant: T }, { kind: 'not_api', reason: 'base_path', evidence: { check: 'base-path', step: 'host' } }],
  ['an HTML page at the base URL', { answer: (c) => response(200, '<html>shop</html>', c.endpoint, { 'content-type': 'text/html' }), tenant: T }, { kind: 'not_api', reason: 'html_page', evidence: { check: 'path' } }],
  ['a redirect at the base URL', { answer: (c) => response(301, '', c.endpoint, { location: 'https://elsewhere/' }), tenant: T }, { kind: 'not_api', reason: 'redirect' }],
  ['revoked key', { answer: revokedBehind(() => ok('docs')), tenant: T }, { kind: 'key_rejected', status: 401, code: 'unauthorized', evidence: { step: 'key', stepNumber: 2 } }],
  ['revoked key behind an HTML 502 /docs', { answer: revokedBehind(html502), tenant: T }, { kind: 'key_rejected', evidence: { check: 'key' } }],
  ['revoked key behind a hanging /docs', { answer: revokedBehind(timeout), tenant: T }, { kind: 'key_rejected', evidence: { check: 'key' } }],
  ['unauthorized sent as 403', { answer: tenantKeyApi(T, everyResource(() => err(403, 'unauthorized', 'clients'))), tenant: T }, { kind: 'key_rejected', status: 403 }],
  ['a test key on a production host', { answer: revokedBehind(() => ok('docs')), tenant: T, baseUrl: 'https://api.repair-service.pl/api/v1' }, { kind: 'key_rejected', testKeyOnProduction: true }],
  ["another tenant's key", { answer: tenantKeyApi('serwis-kowalski'), baseUrl: `http://127.0.0.1:1234/api/v1/tenants/${T}/bikes`, keyTenant: 'serwis-kowalski' }, { kind: 'tenant_mismatch', urlTenant: T, keyTenant: 'serwis-kowalski', evidence: { step: 'tenant' } }],
  ['narrow scope', { answer: tenantKeyApi(T, { 'scope:logs': () => err(403, 'insufficient_scope', 'logs') }), tenant: T }, { kind: 'scope_missing', resource: 'logs', readable: ['clients', 'bikes', 'repairs'] }],
  ['a refusal code the spec does not name', { answer: tenantKeyApi(T, { 'scope:logs': () => err(403, 'forbidden', 'logs') }), tenant: T }, { kind: 'refused', code: 'forbidden', evidence: { check: 'scope:logs' } }],
  ['unknown tenant', { answer: tenantKeyApi(T, everyResource(() => err(404, 'not_found', 'clients'))), tenant: T }, { kind: 'not_found', status: 404, evidence: { check: 'key' } }],
  ['a slug the server refuses', { answer: tenantKeyApi(T, everyResource(() => err(400, 'invalid_tenant_slug', 'clients'))), tenant: T }, { kind: 'client_error', code: 'invalid_tenant_slug' }],
  ['the header forms differ', { answer: tenantKeyApi(T, { 'clients:other-header': () => err(401, 'unauthorized', 'clients') }), tenant: T }, { kind: 'header_forms_differ', evidence: { check: 'header-forms', step: 'headers' } }],
  ['tenant key, no tenant anywhere', { answer: tenantKeyApi(T) }, { kind: 'incomplete', reason: 'no_tenant', keyKind: 'tenant' }],
  ['platform key whose listing names none', { answer: (c) => (c.id.startsWith('platform:') ? response(200, { ok: true, data: [] }, 'platform') : ok(c.endpoint)) }, { kind: 'incomplete', reason: 'platform_no_tenant', keyKind: 'platform' }],
];

describe('the verdict names the cause, not the step', () => {
  it.each(SITUATIONS)('%s', (_name, scenario, expected) => {
    const v = verdict(scenario);
    expect(v).toMatchObject({ exitCode: v.kind === 'ok' ? 0 : 1, ...expected });
    if ('evidence' in v) expect(v.summary).toContain(`step ${v.evidence.stepNumber} (${v.evidence.stepTitle}), check ${v.evidence.check}]`);
  });

  it('every kind of the union is reached by one of these situations', () => {
    const kinds = new Set(SITUATIONS.map(([, scenario]) => probeRun(scenario).report.verdict.kind));
    expect([...kinds].sort()).toEqual([...VERDICT_KINDS].sort());
  });
});

describe('wording', () => {
  it('a 429 storm reads "rate limited", with the wait and what was not run', () => {
    const v = verdict(SITUATIONS[1]![1]);
    expect(v.summary).toMatch(/^RATE LIMITED: retry after 30 s; longer than the probe waits \(--max-wait\), so it stopped \(\d+ calls not run\)/);
    expect(v.next).toContain('wait 30 s');
  });

  it('a rate limit on keyless /docs is not blamed on the key', () => {
    const v = verdict(SITUATIONS[3]![1]);
    expect(v.summary).toContain('carried no key');
    expect(v.next).toContain('API team');
  });

  it('an HTML 502 says a proxy answered and the key is not the problem', () => {
    const v = verdict(SITUATIONS[5]![1]);
    expect(v.summary).toMatch(/^SERVER ERROR: HTTP 502 as an HTML page: a proxy or gateway .* not a key problem \[GET \/api\/v1\/tenants\/rowery-nowak\/bikes: HTTP 502; step 4 \(scope\), check scope:bikes\]$/);
    expect(v.next).toMatch(/escalate to the API on-call.*request id req-\d+/);
  });

  it('a tenant mismatch says which tenant to call with this key', () => {
    expect(verdict(SITUATIONS.find(([n]) => n === "another tenant's key")![1]).next).toBe(`call /tenants/serwis-kowalski/... with this key, or use ${T}'s own key for ${T}`);
  });

  it('NOT CHECKED names what to pass, and --platform-path when the key kind is unknown', () => {
    const tenantKey = verdict({ answer: tenantKeyApi(T) });
    expect(tenantKey.summary).toContain('a tenant key, and the API cannot say which tenant a key belongs to');
    expect(tenantKey.next).toMatch(/^run again with --tenant SLUG \(the shop the key was issued for\), or pass the customer's full URL/);
    const unknown = verdict({ answer: tenantKeyApi(T), platformPaths: [] });
    expect(unknown).toMatchObject({ kind: 'incomplete', keyKind: 'unknown' });
    expect(unknown.next).toContain('--platform-path PATH');
  });
});
