/**
 * The verdict from recorded answers: headlined by the cause the checklist core read, with the
 * first failing row as evidence and the step only as secondary information.
 */
import { describe, expect, it } from 'vitest';
import { TENANT_RESOURCES } from '../../api/contract/index.js';
import type { AttemptFailure, AttemptResult } from '../../api/client/single-attempt.js';
import type { DiagnosisVerdict } from '../../diagnose/verdict.js';
import { VERDICT_KINDS } from '../../diagnose/verdict.js';
import { headlineOf } from '../../diagnose/verdict-words.js';
import { type Answer, type PacedScenario, err, ok, probeRun, refused, response, tenantKeyApi } from '../helpers/diagnose-fixtures.js';

const T = 'rowery-nowak';
const everyResource = (answer: () => AttemptResult): Record<string, () => AttemptResult> =>
  Object.fromEntries(TENANT_RESOURCES.map((r) => [`scope:${r}`, answer]));
const html502 = (): AttemptResult => response(502, '<html><body>Bad Gateway</body></html>', 'clients', { 'content-type': 'text/html' });
const failure = (f: AttemptFailure['failure']): AttemptFailure => ({
  kind: 'failure',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  failure: f,
  timings: { headersMs: undefined, totalMs: 5000 },
});
const timeout = () => failure({ kind: 'timeout', phase: 'headers', message: 'slow' });
const revokedBehind =
  (docs: () => AttemptResult): Answer =>
  (c) =>
    c.id === 'docs'
      ? docs()
      : c.path.startsWith('/tenants/') || c.id === 'index'
        ? err(401, 'unauthorized', c.endpoint)
        : err(401, 'unauthorized', 'platform');

function verdict(s: PacedScenario): DiagnosisVerdict & { exitCode: number } {
  const { report } = probeRun(s);
  expect(report.verdict.headline).toBe(headlineOf(report.verdict));
  expect(report.verdict.summary.startsWith(`${report.verdict.headline}: `)).toBe(true);
  expect(report.verdict.next.length).toBeGreaterThan(10);
  return { ...report.verdict, exitCode: report.exitCode };
}

/** Situation -> expected kind, the step the evidence names, and the details that matter. */
const SITUATIONS: readonly [string, PacedScenario, Record<string, unknown>][] = [
  ['good tenant key', { answer: tenantKeyApi(T), tenant: T }, { kind: 'ok', exitCode: 0 }],
  [
    '429 storm on the tenant paths',
    {
      answer: tenantKeyApi(
        T,
        everyResource(() => err(429, 'rate_limited', 'clients', { 'retry-after': '30' })),
      ),
      tenant: T,
    },
    { kind: 'rate_limited', retryAfterS: 30, stopped: 'too_long', keyed: true, evidence: { step: 'key', check: 'key' } },
  ],
  [
    '429 on / only',
    { answer: tenantKeyApi(T, { index: () => err(429, 'rate_limited', 'index', { 'retry-after': '60' }) }), tenant: T },
    { kind: 'rate_limited', evidence: { step: 'host', check: 'index' } },
  ],
  [
    '429 on keyless /docs',
    { answer: (c) => err(429, 'rate_limited', c.endpoint, { 'retry-after': '3' }), tenant: T },
    { kind: 'rate_limited', keyed: false, stopped: 'still_limited' },
  ],
  [
    '429 without any hint',
    { answer: tenantKeyApi(T, { 'scope:clients': () => err(429, 'rate_limited', 'clients') }), tenant: T },
    { kind: 'rate_limited', retryAfterS: undefined, stopped: 'no_hint' },
  ],
  [
    'one resource behind an HTML 502',
    { answer: tenantKeyApi(T, { 'scope:bikes': html502 }), tenant: T },
    { kind: 'server_error', status: 502, html: true, evidence: { step: 'scope', check: 'scope:bikes' } },
  ],
  [
    'one resource 502 from the API',
    { answer: tenantKeyApi(T, { 'scope:bikes': () => err(502, 'internal_error', 'bikes') }), tenant: T },
    { kind: 'server_error', status: 502, html: false, code: 'internal_error' },
  ],
  [
    'a hanging host',
    { answer: () => timeout(), tenant: T },
    { kind: 'timeout', phase: 'headers', evidence: { step: 'host', check: 'host' } },
  ],
  [
    'connection refused',
    { answer: () => refused(), tenant: T },
    { kind: 'connection_error', how: 'refused', code: 'ECONNREFUSED', headline: 'HOST UNREACHABLE' },
  ],
  [
    'no DNS',
    { answer: () => failure({ kind: 'connection', code: 'ENOTFOUND', message: '' }), tenant: T },
    { kind: 'connection_error', how: 'dns' },
  ],
  [
    'https on a plain port',
    { answer: () => failure({ kind: 'tls', code: 'ERR_SSL_WRONG_VERSION_NUMBER', message: '' }), tenant: T },
    { kind: 'tls_error', code: 'ERR_SSL_WRONG_VERSION_NUMBER', headline: 'HOST UNREACHABLE' },
  ],
  [
    'connections reset on the tenant paths',
    {
      answer: tenantKeyApi(
        T,
        everyResource(() => failure({ kind: 'connection', code: 'ECONNRESET', message: '' })),
      ),
      tenant: T,
    },
    { kind: 'connection_error', how: 'dropped', code: 'ECONNRESET', headline: 'NO COMPLETE ANSWER' },
  ],
  [
    'base path without /api/v1',
    {
      answer: (c) => response(404, '<html>Not Found</html>', c.endpoint, { 'content-type': 'text/html' }),
      baseUrl: 'http://127.0.0.1:1234/api',
      tenant: T,
    },
    { kind: 'not_found', notApi: 'base_path', headline: 'NOT THE API', evidence: { check: 'base-path', step: 'host' } },
  ],
  [
    'an HTML page at the base URL',
    { answer: (c) => response(200, '<html>shop</html>', c.endpoint, { 'content-type': 'text/html' }), tenant: T },
    { kind: 'invalid_envelope', notApi: 'html_page', headline: 'NOT THE API', evidence: { check: 'path' } },
  ],
  [
    'a redirect at the base URL',
    { answer: (c) => response(301, '', c.endpoint, { location: 'https://elsewhere/' }), tenant: T },
    { kind: 'redirect', notApi: 'redirect', location: 'https://elsewhere/', headline: 'NOT THE API' },
  ],
  [
    'revoked key',
    { answer: revokedBehind(() => ok('docs')), tenant: T },
    { kind: 'unauthorized', headline: 'KEY REJECTED', status: 401, code: 'unauthorized', evidence: { step: 'key', stepNumber: 2 } },
  ],
  [
    'revoked key behind an HTML 502 /docs',
    { answer: revokedBehind(html502), tenant: T },
    { kind: 'unauthorized', evidence: { check: 'key' } },
  ],
  [
    'revoked key behind a hanging /docs',
    { answer: revokedBehind(timeout), tenant: T },
    { kind: 'unauthorized', evidence: { check: 'key' } },
  ],
  [
    'unauthorized sent as 403',
    {
      answer: tenantKeyApi(
        T,
        everyResource(() => err(403, 'unauthorized', 'clients')),
      ),
      tenant: T,
    },
    { kind: 'unauthorized', status: 403 },
  ],
  [
    'a test key on a production host',
    { answer: revokedBehind(() => ok('docs')), tenant: T, baseUrl: 'https://api.repair-service.pl/api/v1' },
    { kind: 'unauthorized', testKeyOnProduction: true },
  ],
  [
    "another tenant's key",
    { answer: tenantKeyApi('serwis-kowalski'), baseUrl: `http://127.0.0.1:1234/api/v1/tenants/${T}/bikes`, keyTenant: 'serwis-kowalski' },
    { kind: 'tenant_mismatch', urlTenant: T, keyTenant: 'serwis-kowalski', evidence: { step: 'tenant' } },
  ],
  [
    'narrow scope',
    { answer: tenantKeyApi(T, { 'scope:logs': () => err(403, 'insufficient_scope', 'logs') }), tenant: T },
    {
      kind: 'insufficient_scope',
      headline: 'SCOPE MISSING',
      resource: 'logs',
      readable: ['clients', 'bikes', 'repairs'],
      status: 403,
      code: 'insufficient_scope',
    },
  ],
  [
    'a refusal code the spec does not name, on every resource',
    {
      answer: tenantKeyApi(
        T,
        everyResource(() => err(403, 'forbidden', 'clients')),
      ),
      tenant: T,
    },
    { kind: 'forbidden', headline: 'REFUSED', code: 'forbidden', evidence: { check: 'scope:clients' } },
  ],
  // Issue 20.8: the scope refused with another code (a reading the spec allows, or the API's own), three resources served.
  ...(['forbidden', 'scope_denied'] as const).map((code): [string, PacedScenario, Record<string, unknown>] => [
    `a missing scope refused as 403 ${code} while the other resources are served`,
    { answer: tenantKeyApi(T, { 'scope:logs': () => err(403, code, 'logs') }), tenant: T },
    {
      kind: 'insufficient_scope',
      headline: 'SCOPE MISSING',
      resource: 'logs',
      readable: ['clients', 'bikes', 'repairs'],
      status: 403,
      code,
      evidence: { check: 'scope:logs', errorCode: code },
    },
  ]),
  [
    'unknown tenant',
    {
      answer: tenantKeyApi(
        T,
        everyResource(() => err(404, 'not_found', 'clients')),
      ),
      tenant: T,
    },
    { kind: 'not_found', status: 404, notApi: undefined, headline: 'NOT FOUND', evidence: { check: 'key' } },
  ],
  [
    'a slug the server refuses',
    {
      answer: tenantKeyApi(
        T,
        everyResource(() => err(400, 'invalid_tenant_slug', 'clients')),
      ),
      tenant: T,
    },
    { kind: 'client_error', code: 'invalid_tenant_slug' },
  ],
  [
    'the header forms differ',
    { answer: tenantKeyApi(T, { 'clients:other-header': () => err(401, 'unauthorized', 'clients') }), tenant: T },
    { kind: 'header_forms_differ', evidence: { check: 'header-forms', step: 'headers' } },
  ],
  ['tenant key, no tenant anywhere', { answer: tenantKeyApi(T) }, { kind: 'incomplete', reason: 'no_tenant', keyKind: 'tenant' }],
  [
    'platform key whose listing names none',
    { answer: (c) => (c.id.startsWith('platform:') ? response(200, { ok: true, data: [] }, 'platform') : ok(c.endpoint)) },
    { kind: 'incomplete', reason: 'platform_no_tenant', keyKind: 'platform' },
  ],
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
  it('a scope refused under another code names the scope, the resource and the server\'s code, never "unknown error code" (20.8)', () => {
    for (const code of ['forbidden', 'scope_denied']) {
      const v = verdict({ answer: tenantKeyApi(T, { 'scope:logs': () => err(403, code, 'logs') }), tenant: T });
      expect(v.summary).toMatch(
        new RegExp(
          `^SCOPE MISSING: the key's scope does not include logs \\(refused with HTTP 403 ${code}, this API's scope refusal; it may read clients, bikes, repairs\\)`,
        ),
      );
      expect(v.summary).not.toContain('unknown error code');
      expect(v.next).toMatch(/^extend the key's scope to logs/);
    }
  });

  it('a 429 on the other header form is a rate limit, never "header forms differ" (20.7)', () => {
    // The wait the server asks for equals the probe's patience: waited out once, limited again.
    const limited = () => err(429, 'rate_limited', 'clients', { 'retry-after': '3' });
    const { report, waits } = probeRun({ answer: tenantKeyApi(T, { 'clients:other-header': limited }), tenant: T, maxWaitS: 3 });
    expect(waits).toEqual([3000]);
    expect(report.verdict).toMatchObject({
      kind: 'rate_limited',
      headline: 'RATE LIMITED',
      stopped: 'still_limited',
      evidence: { check: 'rate-limit' },
    });
    expect(report.verdict.summary).not.toMatch(/HEADER FORMS|x-api-key: 429/);
    expect(report.verdict.next).not.toContain('header');
    const forms = report.checks.find((c) => c.check === 'header-forms')!;
    expect(forms).toMatchObject({
      status: 'skip',
      explanation: 'not run: not compared: x-api-key got 429 rate_limited, which says nothing of the header form',
    });
    // Nor is a 429 on the customer's own form evidence either way.
    const first = probeRun({ answer: tenantKeyApi(T, { 'scope:clients': limited }), tenant: T, maxWaitS: 0 });
    expect(first.report.checks.find((c) => c.check === 'header-forms')?.status).not.toBe('fail');
  });

  it('a 429 storm reads "rate limited", with the wait and what was not run', () => {
    const v = verdict(SITUATIONS[1]![1]);
    expect(v.summary).toMatch(
      /^RATE LIMITED: retry after 30 s; longer than the probe waits \(--max-wait\), so it stopped \(\d+ calls not run\)/,
    );
    expect(v.next).toContain('wait 30 s');
  });

  it('a rate limit on keyless /docs is not blamed on the key', () => {
    const v = verdict(SITUATIONS[3]![1]);
    expect(v.summary).toContain('carried no key');
    expect(v.next).toContain('API team');
  });

  it('an HTML 502 says a proxy answered and the key is not the problem', () => {
    const v = verdict(SITUATIONS[5]![1]);
    expect(v.summary).toMatch(
      /^SERVER ERROR: HTTP 502 as an HTML page: a proxy or gateway .* not a key problem \[GET \/api\/v1\/tenants\/rowery-nowak\/bikes: HTTP 502; step 4 \(scope\), check scope:bikes\]$/,
    );
    expect(v.next).toMatch(/escalate to the API on-call.*request id req-\d+ trace 4bf92f3577b34da6a3ce929d0e0e4736/);
  });

  it('a tenant mismatch says which tenant to call with this key', () => {
    expect(verdict(SITUATIONS.find(([n]) => n === "another tenant's key")![1]).next).toBe(
      `call /tenants/serwis-kowalski/... with this key, or use ${T}'s own key for ${T}`,
    );
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
