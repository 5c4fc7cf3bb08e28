/**
 * Property: over arbitrary statuses, headers and bodies coming off the wire, through the real
 * `sendAttempt` (undici, a MockAgent as the dispatcher), the monitor never throws, gives exactly
 * one outcome with a label-safe reason, and that outcome is `answerKind(attempt)`, the word every
 * tool uses for the answer, except where data came back in place of an expected refusal (the
 * monitor's own `assertion_failed`). Bodies and headers sometimes quote the key: the verdict
 * (hence /probes and /probes.json) never carries it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiKey, answerKind, sendAttempt } from '../../../api/client/single-attempt.js';
import { ERROR_CODES } from '../../../api/contract/index.js';
import { type Expectation, OUTCOMES } from '../../../monitor/probe/expectation.js';
import { classifyOutcome } from '../../../monitor/probe/outcome.js';
import { ORIGIN, PATH, SECRET, agentReplying, body, headerValue, status } from '../../helpers/wire-arbitraries.js';

const HEADERS = ['retry-after', 'ratelimit-reset', 'x-ratelimit-reset', 'content-type', 'location', 'x-request-id'] as const;
const headers = fc.dictionary(fc.constantFrom(...HEADERS), headerValue, { maxKeys: 4 });
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
  const agent = agentReplying(s, b, h);
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
