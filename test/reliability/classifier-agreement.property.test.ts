/**
 * Property: over arbitrary statuses, headers and bodies coming off the wire, the client names the
 * answer with the contract's answer kind (`error.kind` = `answerKind`), never throws anything but
 * an ApiError, and bodies or headers quoting the key never reach its error
 * (message, toJSON, inspect). The monitor's side of the same wire (one outcome, spelled
 * `answerKind(attempt)`, no key in the verdict) is test/monitor/probe/outcome-wire.property.test.ts.
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { ApiKey, createClient, isApiError } from '../../api/client/index.js';
import { answerKind, sendAttempt } from '../../api/client/single-attempt.js';
import { ERROR_CODES } from '../../api/contract/index.js';

const ORIGIN = 'http://api.test';
const BASE_URL = `${ORIGIN}/api/v1`;
const PATH = '/tenants/rowery-nowak/clients';
const SECRET = `rs_test_PROPERTY${'k'.repeat(12)}9Qz7`;

const text = fc.oneof(
  fc.string(),
  fc.constant(SECRET),
  fc.string().map((s) => `${s}${SECRET}${s}`),
);
const codeWithout = fc.oneof(fc.constantFrom(...Object.values(ERROR_CODES)), fc.string());
const codeWith = fc.oneof(codeWithout, fc.constant(SECRET));
const envelopeWith = (code: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.record({ ok: fc.constant(true), data: fc.oneof(fc.array(fc.jsonValue()), fc.jsonValue()) }, { requiredKeys: [] }),
    fc.record(
      { ok: fc.constant(false), error: fc.oneof(fc.record({ code, message: text }, { requiredKeys: [] }), fc.jsonValue()) },
      { requiredKeys: [] },
    ),
    fc.dictionary(fc.string(), fc.jsonValue()),
  );
/** Bodies that quote the key anywhere but in `error.code` (see the known bug below). */
const body = fc.oneof(
  text,
  fc.json(),
  envelopeWith(codeWithout).map((e) => JSON.stringify(e)),
);
const bodyAnyCode = fc.oneof(
  body,
  envelopeWith(codeWith).map((e) => JSON.stringify(e)),
);
const headerValueWithout = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
  fc.integer({ min: -10, max: 10_000_000_000 }).map(String),
  fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
);
const headerValue = fc.oneof(headerValueWithout, fc.constant(SECRET), fc.constant(`${ORIGIN}/elsewhere?k=${SECRET}`));
const HINT_HEADERS = [
  'retry-after',
  'retry-after-ms',
  'ratelimit-reset',
  'x-ratelimit-reset',
  'ratelimit-limit',
  'ratelimit-remaining',
  'content-type',
  'location',
] as const;
/** Any header may quote the key except `x-request-id` (see the known bug below). */
const headersWith = (requestId: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.dictionary(fc.constantFrom(...HINT_HEADERS), headerValue, { maxKeys: 5 }), fc.option(requestId, { nil: undefined }))
    .map(([h, id]) => (id === undefined ? h : { ...h, 'x-request-id': id }));
const headers = headersWith(headerValueWithout);
const headersAnyRequestId = headersWith(headerValue);
const status = fc.oneof(fc.integer({ min: 200, max: 599 }), fc.constantFrom(200, 301, 302, 307, 401, 403, 404, 408, 429, 500, 502, 503));

function agentReplying(s: number, b: string, h: Record<string, string>): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent
    .get(ORIGIN)
    .intercept({ path: `/api/v1${PATH}`, method: 'GET' })
    .reply(s, b, { headers: h });
  return agent;
}

/** What one attempt at the same answer is, by the one mapping every tool uses. */
async function attemptKind(s: number, b: string, h: Record<string, string>): Promise<string> {
  const agent = agentReplying(s, b, h);
  try {
    const result = await sendAttempt({
      dispatcher: agent,
      baseUrl: BASE_URL,
      path: PATH,
      endpoint: 'clients',
      key: new ApiKey(SECRET, 'prop'),
      authScheme: 'bearer',
      timeoutMs: 5_000,
    });
    return answerKind(result);
  } finally {
    await agent.close();
  }
}

async function clientSide(s: number, b: string, h: Record<string, string>): Promise<{ kind: string; leak: string }> {
  const agent = agentReplying(s, b, h);
  const client = createClient({
    baseUrl: BASE_URL,
    apiKey: new ApiKey(SECRET, 'prop'),
    tenant: 'rowery-nowak',
    dispatcher: agent,
    maxRetries: 0,
  });
  try {
    await client.listClients();
    return { kind: 'ok', leak: '' };
  } catch (error) {
    if (!isApiError(error)) throw new Error(`not an ApiError: ${inspect(error)}`);
    return { kind: error.kind, leak: [error.message, JSON.stringify(error), inspect(error, { depth: 6 })].join('\n') };
  } finally {
    await agent.close();
  }
}

describe('the client over arbitrary responses', () => {
  it('names every answer as every tool does: error.kind (or ok) is answerKind of the same answer', async () => {
    await fc.assert(
      fc.asyncProperty(status, body, headers, async (s, b, h) => {
        expect((await clientSide(s, b, h)).kind).toBe(await attemptKind(s, b, h));
      }),
      { numRuns: 200 },
    );
  });

  it('never throws anything but an ApiError, and no key in its error', async () => {
    await fc.assert(
      fc.asyncProperty(status, body, headers, async (s, b, h) => {
        expect((await clientSide(s, b, h)).leak).not.toContain(SECRET);
      }),
      { numRuns: 300 },
    );
  });

  it('`error.code` or `x-request-id` echoing the key never reaches ApiError.code/.requestId or toJSON', async () => {
    await fc.assert(
      fc.asyncProperty(status, bodyAnyCode, headersAnyRequestId, async (s, b, h) => {
        expect((await clientSide(s, b, h)).leak).not.toContain(SECRET);
      }),
      { numRuns: 300 },
    );
  });
});
