import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { AttemptResult, TransportFailure } from '../../../api/client/single-attempt.js';
import { classifyResponse, parseEnvelope } from '../../../api/contract/index.js';
import { type Expectation, OUTCOMES } from '../../../monitor/probe/expectation.js';
import { classifyOutcome } from '../../../monitor/probe/outcome.js';

function response(status: number, body: string, list = true): AttemptResult {
  const envelope = parseEnvelope(body, { status, list });
  return {
    kind: 'response',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    status,
    headers: {},
    envelope,
    classification: classifyResponse(status, envelope),
    requestId: undefined,
    bodyBytes: body.length,
    bodyExcerpt: body.slice(0, 100),
    timings: { headersMs: 1, totalMs: 2 },
  };
}

const read: Expectation = { kind: 'success', list: true };
const crossTenant: Expectation = {
  kind: 'refusal',
  outcome: 'tenant_mismatch',
  specCode: 'tenant_key_tenant_mismatch',
  codeSource: 'spec',
  breach: 'tenant_isolation_breach',
  breachDetail: 'read another tenant',
};
const platformRefused: Expectation = {
  kind: 'refusal',
  outcome: 'forbidden',
  specCode: undefined,
  codeSource: 'spec',
  breach: 'authorization_breach',
  breachDetail: 'tenant key read /platform/',
};

const scopeRefused: Expectation = {
  kind: 'refusal',
  outcome: 'insufficient_scope',
  specCode: 'insufficient_scope',
  codeSource: 'config',
  breach: 'unexpected_access',
  breachDetail: 'key read logs',
};

describe('classifyOutcome', () => {
  test('maps the client classification, never the message text', () => {
    const cases: Array<[number, string, string, string]> = [
      [200, '{"ok":true,"data":[1,2]}', 'ok', 'none'],
      [401, '{"ok":false,"error":{"code":"unauthorized","message":"Zły klucz"}}', 'unauthorized', 'code_unauthorized'],
      [
        403,
        '{"ok":false,"error":{"code":"tenant_key_tenant_mismatch","message":"x"}}',
        'tenant_mismatch',
        'code_tenant_key_tenant_mismatch',
      ],
      [403, '{"ok":false,"error":{"code":"insufficient_scope","message":"x"}}', 'insufficient_scope', 'code_insufficient_scope'],
      [403, '{"ok":false,"error":{"code":"scope_denied","message":"x"}}', 'forbidden', 'code_other_code'],
      [429, '{"ok":false,"error":{"code":"rate_limited","message":"x"}}', 'rate_limited', 'status_429'],
      [502, '<html>bad gateway</html>', 'server_error', 'status_502'],
      [404, '{"ok":false,"error":{"code":"not_found","message":"x"}}', 'not_found', 'status_404'],
      [400, '{"ok":false,"error":{"code":"invalid_tenant_slug","message":"x"}}', 'client_error', 'status_400'],
      [302, '', 'redirect', 'redirect_302'],
      [200, '{"ok":true}', 'invalid_envelope', 'envelope_data_missing'],
      [200, 'not json', 'invalid_envelope', 'envelope_not_json'],
    ];
    for (const [status, body, outcome, reason] of cases) {
      const v = classifyOutcome(response(status, body), read);
      expect([status, v.outcome, v.reason]).toEqual([status, outcome, reason]);
    }
    expect(classifyOutcome(response(200, '{"ok":true,"data":[1,2]}'), read).items).toBe(2);
  });

  test('a refusal canary passes on any refusal; another code than the spec names is a deviation, never a breach', () => {
    const hidden = classifyOutcome(response(404, '{"ok":false,"error":{"code":"not_found","message":"x"}}'), crossTenant);
    expect(hidden).toMatchObject({ success: true, reason: 'deviation_not_found' });
    expect(hidden.detail).toContain('where the spec names tenant_key_tenant_mismatch');
    // A 401 without an envelope names no other code: its body is not shown by the spec.
    const plain401 = classifyOutcome(response(401, 'Unauthorized'), crossTenant);
    expect(plain401).toMatchObject({ outcome: 'unauthorized', success: true, reason: 'none' });
    // Where the spec names no code, every refusal is simply a pass.
    for (const [status, body] of [
      [403, '{"ok":false,"error":{"code":"platform_key_required","message":"x"}}'],
      [404, '{"ok":false,"error":{"code":"not_found","message":"x"}}'],
      [401, '{"ok":false,"error":{"code":"unauthorized","message":"x"}}'],
      [403, '{"ok":false,"error":{"code":"some_gateway_code","message":"x"}}'],
    ] as const) {
      expect(classifyOutcome(response(status, body), platformRefused), `${status}`).toMatchObject({ success: true, reason: 'none' });
    }
    // Not a refusal: a 400, a 5xx or a 429 is a failure, not a pass.
    for (const [status, body] of [
      [400, '{"ok":false,"error":{"code":"bad_request","message":"x"}}'],
      [502, '<html></html>'],
      [429, '{"ok":false,"error":{"code":"rate_limited","message":"x"}}'],
    ] as const) {
      expect(classifyOutcome(response(status, body), platformRefused).success, `${status}`).toBe(false);
    }
  });

  test('a refusal canary passes on the refusal and fails as a breach on data', () => {
    const refused = classifyOutcome(response(403, '{"ok":false,"error":{"code":"tenant_key_tenant_mismatch","message":"x"}}'), crossTenant);
    expect(refused).toMatchObject({ outcome: 'tenant_mismatch', success: true, reason: 'none' });
    const leaked = classifyOutcome(response(200, '{"ok":true,"data":[{"id":1}]}'), crossTenant);
    expect(leaked).toMatchObject({ outcome: 'assertion_failed', success: false, reason: 'tenant_isolation_breach' });
  });

  test("a key's expected refusal (expect in monitor.yaml): any refusal is green, another code a deviation that names the config, data back unexpected access", () => {
    const scope = classifyOutcome(response(403, '{"ok":false,"error":{"code":"insufficient_scope","message":"x"}}'), scopeRefused);
    expect(scope).toMatchObject({ outcome: 'insufficient_scope', success: true, reason: 'none' });
    const other = classifyOutcome(response(404, '{"ok":false,"error":{"code":"not_found","message":"x"}}'), scopeRefused);
    expect(other).toMatchObject({ outcome: 'not_found', success: true, reason: 'deviation_not_found' });
    expect(other.detail).toContain("where the key's expect in monitor.yaml names insufficient_scope");
    const data = classifyOutcome(response(200, '{"ok":true,"data":[{"id":1}]}'), scopeRefused);
    expect(data).toMatchObject({ outcome: 'assertion_failed', success: false, reason: 'unexpected_access' });
    // Not refusals: a 5xx or a 429 is a failure.
    expect(classifyOutcome(response(503, '{"ok":false,"error":{"code":"internal_error","message":"x"}}'), scopeRefused).success).toBe(
      false,
    );
  });

  test('transport failures', () => {
    const fail = (failure: TransportFailure): AttemptResult => ({
      kind: 'failure',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      failure,
      timings: { headersMs: undefined, totalMs: 5 },
    });
    expect(classifyOutcome(fail({ kind: 'tls', code: 'ERR_SSL_WRONG_VERSION_NUMBER', message: 'x' }), read).outcome).toBe('tls_error');
    expect(classifyOutcome(fail({ kind: 'timeout', phase: 'body', message: 'x' }), read).reason).toBe('timeout_body');
    expect(classifyOutcome(fail({ kind: 'connection', code: 'ECONNREFUSED', message: 'x' }), read).reason).toBe('connection_econnrefused');
  });

  test('property: never throws, exactly one outcome from the closed set, label-safe reason', () => {
    const failure = fc.oneof(
      fc.record({
        kind: fc.constant('timeout' as const),
        phase: fc.constantFrom('connect' as const, 'headers' as const, 'body' as const),
        message: fc.string(),
      }),
      fc.record({ kind: fc.constantFrom('connection' as const, 'tls' as const), code: fc.string(), message: fc.string() }),
      fc.record({ kind: fc.constant('body_too_large' as const), limitBytes: fc.nat(), message: fc.string() }),
      fc.record({ kind: fc.constant('aborted' as const), reason: fc.anything(), message: fc.string() }),
    );
    const body = fc.oneof(
      fc.string(),
      fc.json(),
      fc
        .record(
          { ok: fc.boolean(), data: fc.anything(), error: fc.record({ code: fc.string(), message: fc.string() }) },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
    );
    const attempt = fc.oneof(
      fc.tuple(fc.integer({ min: 100, max: 599 }), body, fc.boolean()).map(([s, b, l]) => response(s, b, l)),
      failure.map((f): AttemptResult => ({
        kind: 'failure',
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        failure: f as TransportFailure,
        timings: { headersMs: undefined, totalMs: 1 },
      })),
    );
    const expectation = fc.constantFrom<Expectation>(
      read,
      { kind: 'success', list: false },
      crossTenant,
      platformRefused,
      {
        kind: 'refusal',
        outcome: 'unauthorized',
        specCode: undefined,
        codeSource: 'spec',
        breach: 'authorization_breach',
        breachDetail: 'x',
      },
      scopeRefused,
    );
    fc.assert(
      fc.property(attempt, expectation, (a, e) => {
        const v = classifyOutcome(a, e);
        expect(OUTCOMES.filter((o) => o === v.outcome)).toHaveLength(1);
        // A read succeeds only on `ok`; a refusal on any refusal (not only the one the spec
        // names), never on data. (It used to say success <=> outcome === expected, which a
        // 401 on a cross-tenant canary breaks: ~1 run in 6 failed.)
        if (e.kind === 'success') expect(v.success).toBe(v.outcome === 'ok');
        else
          expect(v.success).toBe(
            ['unauthorized', 'tenant_mismatch', 'insufficient_scope', 'forbidden', 'not_found'].includes(v.outcome) &&
              [401, 403, 404].includes(v.status ?? 0),
          );
        expect(v.reason).toMatch(/^[a-z0-9_]{1,60}$/);
      }),
      { numRuns: 500 },
    );
  });
});
