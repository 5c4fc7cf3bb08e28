/**
 * Property: over arbitrary statuses, headers and bodies coming off the wire, the client names the
 * answer with the contract's answer kind (`error.kind` = `answerKind`), never throws anything but
 * an ApiError, and bodies or headers quoting the key never reach its error
 * (message, toJSON, inspect). The monitor's side of the same wire (one outcome, spelled
 * `answerKind(attempt)`, no key in the verdict) is test/monitor/probe/outcome-wire.property.test.ts.
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiKey, createClient, isApiError } from '../../api/client/index.js';
import { answerKind, sendAttempt } from '../../api/client/single-attempt.js';
import {
  ORIGIN,
  PATH,
  SECRET,
  agentReplying,
  body,
  bodyAnyCode,
  headerValue,
  headerValueWithout,
  status,
} from '../helpers/wire-arbitraries.js';

const BASE_URL = `${ORIGIN}/api/v1`;
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
/** Any header may quote the key; an `x-request-id` that does is the last property's case. */
const headersWith = (requestId: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.dictionary(fc.constantFrom(...HINT_HEADERS), headerValue, { maxKeys: 5 }), fc.option(requestId, { nil: undefined }))
    .map(([h, id]) => (id === undefined ? h : { ...h, 'x-request-id': id }));
const headers = headersWith(headerValueWithout);
const headersAnyRequestId = headersWith(headerValue);

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
    await client.list('clients');
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
