/**
 * Property: over arbitrary statuses, headers and bodies coming off the wire, through the real
 * `sendAttempt` (undici, a MockAgent as the dispatcher), the monitor never throws, gives exactly
 * one outcome with a label-safe reason, and that outcome is `answerKind(attempt)`, the word every
 * tool uses for the answer, except where data came back in place of an expected refusal (the
 * monitor's own `assertion_failed`). Bodies and headers sometimes quote the key: the verdict
 * (hence /probes and /probes.json) never carries it.
 */
import fc from 'fast-check';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { ApiKey, answerKind, sendAttempt } from '../../../api/client/single-attempt.js';
import { ERROR_CODES } from '../../../api/contract/index.js';
import { type Expectation, OUTCOMES } from '../../../monitor/probe/expectation.js';
import { classifyOutcome } from '../../../monitor/probe/outcome.js';

const ORIGIN = 'http://api.test';
const PATH = '/tenants/rowery-nowak/clients';
const SECRET = `rs_test_PROPERTY${'k'.repeat(12)}9Qz7`;

const text = fc.oneof(
  fc.string(),
  fc.constant(SECRET),
  fc.string().map((s) => `${s}${SECRET}${s}`),
);
const code = fc.oneof(fc.constantFrom(...Object.values(ERROR_CODES)), fc.string());
const envelope = fc.oneof(
  fc.record({ ok: fc.constant(true), data: fc.oneof(fc.array(fc.jsonValue()), fc.jsonValue()) }, { requiredKeys: [] }),
  fc.record(
    { ok: fc.constant(false), error: fc.oneof(fc.record({ code, message: text }, { requiredKeys: [] }), fc.jsonValue()) },
    { requiredKeys: [] },
  ),
  fc.dictionary(fc.string(), fc.jsonValue()),
);
const body = fc.oneof(
  text,
  fc.json(),
  envelope.map((e) => JSON.stringify(e)),
);
const headerValue = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
  fc.integer({ min: -10, max: 10_000_000_000 }).map(String),
  fc.constant(SECRET),
  fc.constant(`${ORIGIN}/elsewhere?k=${SECRET}`),
);
const HEADERS = ['retry-after', 'ratelimit-reset', 'x-ratelimit-reset', 'content-type', 'location', 'x-request-id'] as const;
const headers = fc.dictionary(fc.constantFrom(...HEADERS), headerValue, { maxKeys: 4 });
const status = fc.oneof(fc.integer({ min: 200, max: 599 }), fc.constantFrom(200, 301, 302, 307, 401, 403, 404, 408, 429, 500, 502, 503));
const expectation = fc.constantFrom<Expectation>(
  { kind: 'success', list: true },
  {
    kind: 'refusal',
    outcome: 'tenant_mismatch',
    specCode: ERROR_CODES.tenantMismatch,
    codeSource: 'spec',
    breach: 'tenant_isolation_breach',
    breachDetail: 'x',
  },
  {
    kind: 'refusal',
    outcome: 'insufficient_scope',
    specCode: ERROR_CODES.insufficientScope,
    codeSource: 'config',
    breach: 'unexpected_access',
    breachDetail: 'x',
  },
);

async function attemptOff(s: number, b: string, h: Record<string, string>) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent
    .get(ORIGIN)
    .intercept({ path: `/api/v1${PATH}`, method: 'GET' })
    .reply(s, b, { headers: h });
  try {
    return await sendAttempt({
      dispatcher: agent,
      baseUrl: `${ORIGIN}/api/v1`,
      path: PATH,
      endpoint: 'clients',
      key: new ApiKey(SECRET, 'prop'),
      authScheme: 'bearer',
      timeoutMs: 2_000,
    });
  } finally {
    await agent.close();
  }
}

describe('the monitor names every answer as the contract does', () => {
  it('one outcome, label-safe reason, outcome = answerKind(attempt) unless a refusal was expected and data came back; no key in the verdict', async () => {
    await fc.assert(
      fc.asyncProperty(status, body, headers, expectation, async (s, b, h, e) => {
        const attempt = await attemptOff(s, b, h);
        const verdict = classifyOutcome(attempt, e);
        expect(OUTCOMES.filter((o) => o === verdict.outcome)).toHaveLength(1);
        expect(verdict.reason).toMatch(/^[a-z0-9_]{1,60}$/);
        const breach = e.kind === 'refusal' && answerKind(attempt) === 'ok';
        expect(verdict.outcome).toBe(breach ? 'assertion_failed' : answerKind(attempt));
        expect(JSON.stringify(verdict)).not.toContain(SECRET);
      }),
      { numRuns: 300 },
    );
  });
});
