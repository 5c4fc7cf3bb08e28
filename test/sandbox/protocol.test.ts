/**
 * The sandbox's answers below the API (decide.ts), pure: which status each of Node's parser
 * errors gets and when Host is wrong.
 */
import { describe, expect, it } from 'vitest';
import { readPresentedKey } from '../../api/contract/server/index.js';
import { clientErrorReply, hostProblem } from '../../sandbox/decide.js';

describe('clientErrorReply', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408],
    ['HPE_INVALID_CHUNK_SIZE', 400],
    ['HPE_INVALID_METHOD', 400],
    [undefined, 400],
  ])('%s -> %i bad_request', (code, status) => {
    const reply = clientErrorReply(code);
    expect(reply.status).toBe(status);
    expect(reply.envelope).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });
});

describe('hostProblem', () => {
  it('wants exactly one Host on HTTP/1.1 and at most one on HTTP/1.0', () => {
    expect(hostProblem('1.1', ['x'])).toBeUndefined();
    expect(hostProblem('1.1', undefined)).toContain('Host');
    expect(hostProblem('1.1', ['a', 'b'])).toContain('Host');
    expect(hostProblem('1.0', undefined)).toBeUndefined();
    expect(hostProblem('1.0', ['a', 'a'])).toContain('Host');
  });
});

describe('readPresentedKey with one entry per header line', () => {
  it('a key header on two lines is repeated, whatever the values', () => {
    expect(readPresentedKey({ 'x-api-key': ['k1k1k1k1k1k1k1k1', 'k1k1k1k1k1k1k1k1'] })).toEqual({ kind: 'repeated', header: 'x-api-key' });
    expect(readPresentedKey({ authorization: ['Bearer a', 'Bearer b'] })).toEqual({ kind: 'repeated', header: 'authorization' });
    expect(readPresentedKey({ 'x-api-key': ['k1k1k1k1k1k1k1k1'], authorization: ['Bearer k1k1k1k1k1k1k1k1'] })).toMatchObject({
      kind: 'key',
    });
  });
});
