import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../api/contract/index.js';
import { CODE_EXPLANATIONS, explainCode, explainFinding, explainTransport } from '../../diagnose/explain.js';

describe('explanations', () => {
  it('explains every error code of the contract in English', () => {
    for (const code of Object.values(ERROR_CODES)) {
      expect(CODE_EXPLANATIONS[code], code).toMatch(/^[a-z /*.,;:'()-]+$/i);
      expect(explainCode(code)).toBe(CODE_EXPLANATIONS[code]);
    }
  });

  it("a tenant with a space is hinted at as the shop's name rather than its slug, never refused", () => {
    const mismatch = (urlTenant: string) =>
      explainFinding({ kind: 'tenant_mismatch', status: 403, code: ERROR_CODES.tenantMismatch, urlTenant, keyTenant: undefined });
    expect(mismatch('Rowery Nowak')).toContain(
      '("Rowery Nowak" has a space: is it the shop\'s name rather than its slug, e.g. "rowery-nowak"?)',
    );
    expect(mismatch('rowery-nowak')).not.toContain('has a space');
  });

  it('names an unknown code as such', () => {
    expect(explainCode('teapot')).toContain('unknown error code "teapot"');
  });

  it('words DNS, refused, TLS and timeouts', () => {
    expect(explainTransport({ kind: 'connection', code: 'ENOTFOUND', message: '' })).toContain('DNS');
    expect(explainTransport({ kind: 'connection', code: 'ECONNREFUSED', message: '' })).toContain('refused');
    expect(explainTransport({ kind: 'tls', code: 'CERT_HAS_EXPIRED', message: '' })).toContain('TLS');
    expect(explainTransport({ kind: 'timeout', phase: 'connect', message: '' })).toContain('connecting');
  });
});
