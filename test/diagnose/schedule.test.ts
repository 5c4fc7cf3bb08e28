/** The probe's schedule on recorded answers: call order, the budget, waits and stops. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptResult } from '../../api/client/single-attempt.js';
import { REQUEST_BUDGET } from '../../diagnose/engine.js';
import { OTHER_HEADER_CALL_ID, tenantsInDocs } from '../../diagnose/plan.js';
import { type Answer, err, ok, probeRun, refused, response, row, tenantKeyApi } from '../helpers/diagnose-fixtures.js';

const platformKeyApi: Answer = (c) =>
  c.id.startsWith('platform:') ? response(200, { ok: true, data: [{ slug: 'cykl-gdansk', name: 'Cykl' }] }, 'platform') : ok(c.endpoint);
const docsNaming = (...paths: string[]) =>
  response(200, { ok: true, data: { examples: paths.map((p) => ({ request: `GET ${p}` })) } }, 'docs');

describe('call order', () => {
  it('with a tenant: /docs, the tenant paths first, one /platform/ path, the other header form, / last', () => {
    const run = probeRun({ answer: tenantKeyApi('a'), tenant: 'a', platformPaths: ['tenants', 'keys'] });
    expect(run.sent).toEqual([
      'docs',
      'scope:clients',
      'scope:bikes',
      'scope:repairs',
      'scope:logs',
      'platform:tenants',
      OTHER_HEADER_CALL_ID,
      'index',
    ]);
    expect(run.report.checks.map((c) => c.check)).not.toContain('platform:keys');
    expect(run.report.traffic).toMatchObject({
      requestsSent: 8,
      requestBudget: REQUEST_BUDGET,
      waitedMs: 0,
      stopped: undefined,
      notRun: [],
    });
  });

  it('a second /platform/ path only when the first told nothing', () => {
    const run = probeRun({
      answer: tenantKeyApi('a', { 'platform:tenants': () => err(502, 'internal_error', 'platform') }),
      tenant: 'a',
      platformPaths: ['tenants', 'keys'],
    });
    expect(run.sent).toContain('platform:keys');
    expect(run.report.key.kind).toBe('tenant');
  });

  it('a platform key without a tenant: the listing names one, then its tenant paths', () => {
    const run = probeRun({ answer: platformKeyApi });
    expect(run.sent).toEqual([
      'docs',
      'platform:tenants',
      'scope:clients',
      'scope:bikes',
      'scope:repairs',
      'scope:logs',
      OTHER_HEADER_CALL_ID,
      'index',
    ]);
    expect(run.report.tenant).toMatchObject({ probed: 'cykl-gdansk', source: 'platform' });
    expect(run.report.verdict.kind).toBe('ok');
  });
});

describe('tenants named by /docs', () => {
  it('finds example paths and tenants lists, never a template', () => {
    const paths = ['/api/v1/tenants/{tenant}/bikes', '/tenants/*/logs', '/api/v1/platform/tenants', 'GET /api/v1/tenants/<slug>/bikes'];
    const docs = response(
      200,
      {
        ok: true,
        data: {
          paths,
          tenants: [{ slug: 'b' }, 'c'],
          example: 'https://h/api/v1/tenants/a/clients',
          request: 'GET /api/v1/tenants/d/bikes',
        },
      },
      'docs',
    );
    expect(tenantsInDocs(docs)).toEqual(['b', 'c', 'a', 'd']);
    expect(tenantsInDocs(err(502, 'internal_error', 'docs'))).toEqual([]);
  });

  it('a tenant key without --tenant tries them until one is not another tenant, with no clients call twice', () => {
    const answer: Answer = (c) =>
      c.id === 'docs' ? docsNaming('/api/v1/tenants/a/clients', '/api/v1/tenants/b/bikes') : tenantKeyApi('b')(c);
    const run = probeRun({ answer });
    expect(run.sent).toEqual([
      'docs',
      'platform:tenants',
      'guess:a',
      'guess:b',
      'scope:bikes',
      'scope:repairs',
      'scope:logs',
      OTHER_HEADER_CALL_ID,
      'index',
    ]);
    expect(run.report.tenant).toMatchObject({ probed: 'b', source: 'docs', guessed: ['a', 'b'] });
    expect(run.report.verdict.kind).toBe('ok');
    expect(row(run.report, 'tenant').explanation).toMatch(
      /accepted for tenant b, a tenant \/docs names .*not a: tenant_key_tenant_mismatch/,
    );
    expect(row(run.report, 'scope:clients').status).toBe('pass');
  });

  it('says plainly when the key is none of them, naming what to pass', () => {
    const answer: Answer = (c) => (c.id === 'docs' ? docsNaming('/tenants/a/clients', '/tenants/b/clients') : tenantKeyApi('z')(c));
    const run = probeRun({ answer });
    expect(run.report.verdict).toMatchObject({ kind: 'incomplete', reason: 'guesses_mismatched', headline: 'NOT CHECKED' });
    expect(run.report.verdict.summary).toContain('none of the tenants /docs names (a, b)');
    expect(run.report.verdict.next).toContain('--tenant SLUG');
    expect(run.report.exitCode).toBe(1);
  });

  it('a guess that gets a narrow-scope refusal on clients still names the tenant', () => {
    const answer: Answer = (c) =>
      c.id === 'docs'
        ? docsNaming('/tenants/a/bikes')
        : tenantKeyApi('a', { 'guess:a': () => err(403, 'insufficient_scope', 'clients') })(c);
    const run = probeRun({ answer });
    expect(run.report.verdict).toMatchObject({ kind: 'insufficient_scope', resource: 'clients' });
  });
});

describe('rate limits', () => {
  it('a long Retry-After stops the run at once: nothing more is sent, the rest is shown as not run', () => {
    const answer = tenantKeyApi('a', { 'scope:logs': () => err(429, 'rate_limited', 'logs', { 'retry-after': '60' }) });
    const run = probeRun({ answer, tenant: 'a' });
    expect(run.sent).toEqual(['docs', 'scope:clients', 'scope:bikes', 'scope:repairs', 'scope:logs']);
    expect(run.waits).toEqual([]);
    expect(run.report.traffic).toMatchObject({
      requestsSent: 5,
      stopped: { kind: 'rate_limited', check: 'scope:logs', why: 'too_long' },
      notRun: ['platform:tenants', OTHER_HEADER_CALL_ID, 'index'],
    });
    for (const check of ['platform:tenants', 'header-forms', 'index'])
      expect(row(run.report, check)).toMatchObject({ status: 'skip', explanation: expect.stringContaining('retry after 60 s') });
  });

  it('a short one is waited out and the call retried once; a 429 again stops', () => {
    const run = probeRun({ answer: (c) => err(429, 'rate_limited', c.endpoint, { 'retry-after': '3' }), tenant: 'a' });
    expect(run.sent).toEqual(['docs', 'docs']);
    expect(run.waits).toEqual([3000]);
    expect(run.report.traffic).toMatchObject({
      waitedMs: 3000,
      waits: [{ check: 'docs', ms: 3000, source: 'retry-after' }],
      stopped: { why: 'still_limited' },
    });
  });

  it('a 429 that lifts after the wait leaves no failure, and the rate-limit row says it waited', () => {
    let limited = true;
    const answer = tenantKeyApi('a', {
      'scope:bikes': () => (limited ? ((limited = false), err(429, 'rate_limited', 'bikes', { 'retry-after': '2' })) : ok('bikes')),
    });
    const run = probeRun({ answer, tenant: 'a' });
    expect(run.sent.filter((id) => id === 'scope:bikes')).toHaveLength(2);
    expect(run.report.verdict.kind).toBe('ok');
    expect(row(run.report, 'rate-limit').explanation).toContain('2 s before retrying scope:bikes');
  });

  it('the waits of a run add up to at most --max-wait', () => {
    const answer = tenantKeyApi(
      'a',
      Object.fromEntries(
        ['scope:clients', 'scope:bikes', 'scope:repairs'].map((id) => [
          id,
          once(() => err(429, 'rate_limited', 'clients', { 'retry-after': '4' })),
        ]),
      ),
    );
    const run = probeRun({ answer, tenant: 'a', maxWaitS: 10 });
    expect(run.waits).toEqual([4000, 4000]);
    expect(run.report.traffic.stopped).toMatchObject({ kind: 'rate_limited', check: 'scope:repairs', why: 'too_long' });
    // The rows left unsent name the limited call by its path, not by a call id a row may share.
    const unsent = run.report.checks.find((r) => r.check === 'scope:logs')!;
    expect(unsent.explanation).toMatch(/^not run: rate limited on GET \/tenants\/a\/repairs: retry after 4 s/);
  });
});

/** The first call gets `first()`, later ones a plain answer. */
function once(first: () => AttemptResult): () => AttemptResult {
  let used = false;
  return () => (used ? ok('clients') : ((used = true), first()));
}

describe('the request budget', () => {
  it('retries come out of it: when they have spent it, the run stops there', () => {
    const docs = response(200, { ok: true, data: { e: ['/tenants/a/x', '/tenants/b/x'] } }, 'docs');
    const seen = new Set<string>();
    const answer: Answer = (c) =>
      c.id === 'docs'
        ? docs
        : seen.has(c.id)
          ? ok(c.endpoint)
          : (seen.add(c.id), err(429, 'rate_limited', 'clients', { 'retry-after': '0' }));
    const run = probeRun({ answer, platformPaths: ['tenants', 'keys'] });
    expect(run.sent).toHaveLength(REQUEST_BUDGET);
    expect(run.report.traffic).toMatchObject({
      requestsSent: REQUEST_BUDGET,
      stopped: { kind: 'rate_limited', check: 'scope:logs', why: 'budget' },
      notRun: [OTHER_HEADER_CALL_ID, 'index'],
    });
    expect(run.report.verdict).toMatchObject({ kind: 'rate_limited', stopped: 'budget' });
  });

  const answers: fc.Arbitrary<() => AttemptResult> = fc.constantFrom(
    () => ok('clients'),
    () => err(401, 'unauthorized', 'clients'),
    () => err(403, 'tenant_key_tenant_mismatch', 'clients'),
    () => err(502, 'internal_error', 'clients'),
    () => err(429, 'rate_limited', 'clients', { 'retry-after': '0' }),
    () => err(429, 'rate_limited', 'clients', { 'retry-after': '2' }),
    () => err(429, 'rate_limited', 'clients', { 'ratelimit-reset': '1' }),
    () => err(429, 'rate_limited', 'clients'),
    () => refused(),
    (): AttemptResult => ({
      kind: 'failure',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      failure: { kind: 'timeout', phase: 'headers', message: '' },
      timings: { headersMs: undefined, totalMs: 1 },
    }),
  );

  it('is never exceeded and the waits never pass --max-wait, whatever the server answers', () => {
    fc.assert(
      fc.property(
        fc.array(answers, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 12 }),
        (script, withTenant, maxWaitS) => {
          let i = 0;
          const docs = response(200, { ok: true, data: { e: ['/tenants/a/x', '/tenants/b/x'] } }, 'docs');
          const run = probeRun({
            answer: (c) => (c.id === 'docs' && i === 0 ? (i++, docs) : script[i++ % script.length]!()),
            tenant: withTenant ? 'a' : undefined,
            maxWaitS,
            platformPaths: ['tenants', 'keys'],
          });
          expect(run.sent.length).toBeLessThanOrEqual(REQUEST_BUDGET);
          expect(run.report.traffic.requestsSent).toBe(run.sent.length);
          expect(run.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(maxWaitS * 1000);
          expect(run.report.exitCode).toBe(run.report.verdict.kind === 'ok' ? 0 : 1);
        },
      ),
      { numRuns: 300 },
    );
  });
});
