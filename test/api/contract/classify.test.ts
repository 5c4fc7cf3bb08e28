/** Where the spec ties no status to a code, the code decides; then the status; never the message. */
import { describe, expect, it } from 'vitest';
import { classifyResponse, parseEnvelope } from '../../../api/contract/index.js';

const kind = (status: number, body: string): string => classifyResponse(status, parseEnvelope(body, { status })).kind;
const error = (code: string): string => JSON.stringify({ ok: false, error: { code, message: 'komunikat' } });

describe('classifyResponse under the readings of the spec', () => {
  it('`unauthorized` is a rejected key with whatever status it comes with (its status is not shown)', () => {
    for (const status of [400, 401, 403, 404]) expect(kind(status, error('unauthorized')), `${status}`).toBe('unauthorized');
  });

  it('a 401 is a rejected key with any code, and without an envelope (a 401 body is not shown)', () => {
    expect(kind(401, error('missing_api_key'))).toBe('unauthorized');
    expect(kind(401, 'Unauthorized')).toBe('unauthorized');
    expect(kind(401, '')).toBe('unauthorized');
  });

  it('the spec-named mismatch code decides even off its 403', () => {
    expect(kind(403, error('tenant_key_tenant_mismatch'))).toBe('tenant_mismatch');
    expect(kind(404, error('tenant_key_tenant_mismatch'))).toBe('tenant_mismatch');
  });

  it('other refusals keep their code for the caller: 403 forbidden, 404 client_error', () => {
    expect(kind(403, error('forbidden'))).toBe('forbidden');
    expect(kind(403, error('platform_key_required'))).toBe('forbidden');
    expect(kind(404, error('not_found'))).toBe('not_found');
    expect(kind(403, error('insufficient_scope'))).toBe('insufficient_scope');
  });

  it('a 429 is rate limited with or without an envelope (its body is not shown); so is rate_limited on another status', () => {
    expect(kind(429, 'Too Many Requests')).toBe('rate_limited');
    expect(kind(429, error('rate_limited'))).toBe('rate_limited');
    expect(kind(403, error('rate_limited'))).toBe('rate_limited');
  });

  it('a 403 or 404 without an envelope is not the API answering', () => {
    expect(kind(403, '<html>Forbidden</html>')).toBe('invalid_envelope');
    expect(kind(404, '<html>Not Found</html>')).toBe('invalid_envelope');
  });
});
