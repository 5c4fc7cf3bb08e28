import { describe, expect, it } from 'vitest';
import { OTHER_HEADER_CALL_ID } from '../../diagnose/plan.js';
import { err, ok, refused, report, response, row, tenantKeyApi } from '../helpers/diagnose-fixtures.js';

describe('buildReport verdicts', () => {
  it('a working tenant key passes every step and exits 0', () => {
    const r = report({ answer: tenantKeyApi('rowery-nowak'), tenant: 'rowery-nowak' });
    expect(r.verdict.kind).toBe('ok');
    expect(r.exitCode).toBe(0);
    expect(r.key.kind).toBe('tenant');
    expect(r.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(r.verdict.summary).toContain('reads clients, bikes, repairs, logs of tenant rowery-nowak');
    expect(row(r, 'platform:tenants').errorCode).toBe('platform_key_required');
  });

  it('keeps the checklist order: host, key, tenant, scope, headers', () => {
    const r = report({ answer: tenantKeyApi('rowery-nowak'), tenant: 'rowery-nowak' });
    const steps = r.checks.map((c) => c.step);
    expect([...new Set(steps)]).toEqual(['host', 'key', 'tenant', 'scope', 'headers']);
  });

  it('a tenant key without --tenant skips key, tenant and scope and says so, exit 1: nothing proved the key works', () => {
    const r = report({ answer: tenantKeyApi('rowery-nowak') });
    expect(row(r, 'tenant').status).toBe('skip');
    expect(row(r, 'key').status).toBe('skip');
    expect(row(r, 'tenant').explanation).toContain('--tenant');
    expect(r.verdict.kind).toBe('incomplete');
    expect(r.exitCode).toBe(1);
    expect(r.verdict.summary).toContain('NOT CHECKED');
  });

  it('a rejected key stops at step 2, with the server message verbatim and a curl line', () => {
    const r = report({ answer: (c) => (c.id === 'docs' ? ok('docs') : err(401, 'unauthorized')), tenant: 'rowery-nowak' });
    expect(r.verdict).toMatchObject({
      kind: 'unauthorized',
      headline: 'KEY REJECTED',
      evidence: { step: 'key', stepNumber: 2, check: 'key' },
    });
    const accepted = row(r, 'key');
    expect(accepted.serverMessage).toBe('komunikat unauthorized');
    expect(accepted.explanation).toMatch(/not accepted/);
    expect(accepted.curl).toContain('"authorization: Bearer $REPAIR_API_KEY"');
    expect(row(r, 'scope:logs').status).toBe('skip');
    expect(r.exitCode).toBe(1);
  });

  it('says so when a test key is rejected by a production-looking host', () => {
    const r = report({
      answer: (c) => (c.id === 'docs' ? ok('docs') : err(401, 'unauthorized')),
      baseUrl: 'https://api.repair-service.pl/api/v1',
      keyEnvironment: 'test',
      tenant: 'a',
    });
    expect(row(r, 'key').explanation).toContain('TEST key');
    const local = report({ answer: (c) => (c.id === 'docs' ? ok('docs') : err(401, 'unauthorized')), keyEnvironment: 'test', tenant: 'a' });
    expect(row(local, 'key').explanation).not.toContain('TEST key');
  });

  it('explains a tenant mismatch with both slugs when the URL and --tenant differ', () => {
    const r = report({
      answer: tenantKeyApi('rowery-nowak'),
      baseUrl: `http://127.0.0.1:1234/api/v1/tenants/serwis-kowalski/bikes`,
      keyTenant: 'rowery-nowak',
    });
    expect(r.verdict).toMatchObject({
      kind: 'tenant_mismatch',
      urlTenant: 'serwis-kowalski',
      keyTenant: 'rowery-nowak',
      evidence: { step: 'tenant' },
    });
    const tenant = row(r, 'tenant');
    expect(tenant.errorCode).toBe('tenant_key_tenant_mismatch');
    expect(tenant.explanation).toContain('"serwis-kowalski"');
    expect(tenant.explanation).toContain('"rowery-nowak"');
  });

  it("with only the URL tenant, says the API cannot name the key's tenant", () => {
    const r = report({ answer: tenantKeyApi('rowery-nowak'), tenant: 'cykl-gdansk' });
    expect(row(r, 'tenant').explanation).toMatch(/another tenant, not "cykl-gdansk".*cannot say which/);
  });

  it('names the resources a narrow key may read', () => {
    const r = report({
      answer: tenantKeyApi('rowery-nowak', { 'scope:logs': () => err(403, 'insufficient_scope', 'logs') }),
      tenant: 'rowery-nowak',
    });
    expect(r.verdict).toMatchObject({
      kind: 'insufficient_scope',
      resource: 'logs',
      readable: ['clients', 'bikes', 'repairs'],
      evidence: { step: 'scope', check: 'scope:logs' },
    });
    expect(row(r, 'scope:logs').explanation).toBe("the key's scope does not include logs (it may read clients, bikes, repairs)");
    expect(row(r, 'tenant').status).toBe('pass');
  });

  it('an unreachable host fails step 1 and skips the rest without curl lines for calls not made', () => {
    const r = report({ answer: (call) => (call.id === 'docs' ? refused() : undefined), tenant: 'rowery-nowak' });
    expect(r.verdict).toMatchObject({
      kind: 'connection_error',
      how: 'refused',
      headline: 'HOST UNREACHABLE',
      evidence: { step: 'host', check: 'host' },
    });
    expect(row(r, 'host').explanation).toContain('connection refused');
    expect(r.checks.filter((c) => c.status === 'skip').length).toBeGreaterThan(5);
    expect(r.checks.filter((c) => c.curl).map((c) => c.check)).toEqual(['host']);
  });

  it('tells a proxy HTML page from the API and a 404 page from a wrong path', () => {
    const html = report({
      answer: (c) => response(502, '<html><body>Bad Gateway</body></html>', c.endpoint, { 'content-type': 'text/html' }),
    });
    expect(row(html, 'path').explanation).toMatch(/HTML page: a proxy or gateway/);
    const notFound = report({
      answer: (c) => response(404, '<html>Not Found</html>', c.endpoint, { 'content-type': 'text/html' }),
      baseUrl: 'http://127.0.0.1:1234/api',
    });
    expect(notFound.verdict).toMatchObject({ kind: 'not_found', notApi: 'base_path', evidence: { step: 'host', check: 'base-path' } });
    expect(row(notFound, 'path').explanation).toMatch(/HTML page, not an API envelope/);
    const noEnvelope = report({ answer: (c) => response(200, { hello: 1 }, c.endpoint) });
    expect(row(noEnvelope, 'path').explanation).toMatch(/without a valid API envelope/);
  });

  it('a 429 reports its Retry-After; the rate-limit row keeps its own explanation', () => {
    const r = report({ answer: (c) => err(429, 'rate_limited', c.endpoint, { 'retry-after': '7' }), tenant: 'rowery-nowak' });
    expect(r.verdict.summary).toContain('retry after 7 s');
    expect(row(r, 'rate-limit').explanation).toContain('retry after 7 s');
    expect(row(r, 'rate-limit').consequenceOf).toBeUndefined();
  });

  it('a 429 without Retry-After says none was sent', () => {
    const r = report({ answer: (c) => err(429, 'rate_limited', c.endpoint), tenant: 'a' });
    expect(row(r, 'rate-limit').explanation).toBe(
      'HTTP 429: rate limited; no Retry-After (or rate-limit reset) header was sent, wait and retry',
    );
  });

  it('reads rate-limit headers when not limited', () => {
    const r = report({
      answer: (c) =>
        response(200, { ok: true, data: [] }, c.endpoint, {
          'ratelimit-limit': '60',
          'ratelimit-remaining': '51',
          'ratelimit-reset': '30',
        }),
      tenant: 'x',
    });
    expect(row(r, 'rate-limit')).toMatchObject({ status: 'pass', explanation: 'not limited; limit 60, remaining 51, reset 30 s' });
  });

  it('fails when the two header forms disagree', () => {
    const r = report({ answer: tenantKeyApi('a', { [OTHER_HEADER_CALL_ID]: () => err(401, 'unauthorized', 'clients') }), tenant: 'a' });
    expect(row(r, 'header-forms')).toMatchObject({ status: 'fail', errorCode: 'unauthorized' });
    expect(row(r, 'header-forms').explanation).toContain('bearer: 200 vs x-api-key: 401 unauthorized');
    expect(row(r, 'header-forms').curl).toContain('"x-api-key: $REPAIR_API_KEY"');
  });

  it('learns a platform key from /platform/ and infers nothing without a listing', () => {
    const r = report({
      answer: (c) => (c.id === 'platform:tenants' ? response(200, { ok: true, data: { weird: true } }, 'platform') : ok(c.endpoint)),
    });
    expect(r.key.kind).toBe('platform');
    expect(row(r, 'tenant').status).toBe('skip');
  });

  it('a 404 on a platform sub-path /docs lists, for a key the tenant paths accept, reads as a tenant key (the path is hidden from it)', () => {
    const docs = () => response(200, { ok: true, data: { platform: ['/platform/tenants'] } }, 'docs');
    const r = report({ answer: tenantKeyApi('a', { docs, 'platform:tenants': () => err(404, 'not_found', 'platform') }), tenant: 'a' });
    expect(row(r, 'platform:tenants')).toMatchObject({ status: 'pass', finding: { kind: 'key_kind', keyKind: 'tenant' } });
    expect(r.key.kind).toBe('tenant');
    expect(r.exitCode).toBe(0);
  });

  it('a 404 on a platform sub-path /docs does not list leaves the kind undetermined, saying why (20.9)', () => {
    // A platform key, the path given by hand and wrong: the 404 is what some readings give a tenant key too.
    const r = report({ answer: (c) => (c.id.startsWith('platform:') ? err(404, 'not_found', 'platform') : ok(c.endpoint)), tenant: 'a' });
    expect(r.key.kind).toBe('unknown');
    expect(row(r, 'platform:tenants')).toMatchObject({ status: 'warn', finding: { kind: 'key_kind_unknown' } });
    expect(row(r, 'platform:tenants').explanation).toMatch(
      /^kind not determined: GET \/platform\/tenants answered HTTP 404 and \/docs does not list that path: a wrong path answers so/,
    );
    expect(r.verdict).toMatchObject({ kind: 'ok' });
    expect(r.verdict.summary).toMatch(/^OK: key …wXyZ works/);
    expect(r.checks.some((c) => c.finding.kind === 'key_kind')).toBe(false);
  });

  it('a 429 whose hint asks for years says the hint is broken, in the row as in the verdict (20.6)', () => {
    const r = report({ answer: (c) => err(429, 'rate_limited', c.endpoint, { 'retry-after': '1000000000000000' }), tenant: 'a' });
    for (const text of [row(r, 'rate-limit').explanation, r.verdict.summary, row(r, 'path').explanation]) {
      expect(text).not.toMatch(/\d{6,} s/);
      expect(text).toContain('a broken hint: it asks to wait years');
    }
  });

  it('any refusal code on /platform/ reads as a tenant key (what a tenant key gets there is not shown)', () => {
    for (const refusal of [() => err(403, 'forbidden', 'platform'), () => err(401, 'unauthorized', 'platform')]) {
      const r = report({ answer: tenantKeyApi('a', { 'platform:tenants': refusal }), tenant: 'a' });
      expect(r.key.kind).toBe('tenant');
    }
  });

  it('rows carry latency (rounded), request id and trace id', () => {
    const r = report({ answer: tenantKeyApi('a'), tenant: 'a' });
    expect(row(r, 'path').latencyMs).toBe(2);
    expect(row(r, 'path').requestId).toMatch(/^req-/);
    expect(row(r, 'path').traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });
});
