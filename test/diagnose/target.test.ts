import { describe, expect, it } from 'vitest';
import { endsWithVersion, looksLikeProduction, parseTarget } from '../../diagnose/target.js';

describe('parseTarget', () => {
  it('keeps a plain base URL, dropping a trailing slash', () => {
    const t = parseTarget('https://api.example.com/api/v1/');
    expect(t).toEqual({
      ok: true,
      target: { baseUrl: 'https://api.example.com/api/v1', basePath: '/api/v1', urlTenant: undefined, hostname: 'api.example.com' },
    });
  });

  it("splits a pasted resource URL into base URL and the URL's tenant", () => {
    const t = parseTarget('http://127.0.0.1:8080/api/v1/tenants/serwis-kowalski/bikes');
    expect(t.ok && t.target).toMatchObject({ baseUrl: 'http://127.0.0.1:8080/api/v1', urlTenant: 'serwis-kowalski' });
  });

  it('takes any tenant slug a real API may use: snake_case, capitals, encoded spaces', () => {
    for (const [raw, tenant] of [
      ['rowery_nowak', 'rowery_nowak'],
      ['RoweryNowak', 'RoweryNowak'],
      ['serwis%20kowalski', 'serwis kowalski'],
    ] as const) {
      const t = parseTarget(`https://h/api/v1/tenants/${raw}/bikes`);
      expect(t.ok && t.target.urlTenant).toBe(tenant);
    }
  });

  it.each([
    ['not a url', 'absolute URL'],
    ['ftp://h/api/v1', 'http or https'],
    ['https://user:secret@h/api/v1', 'user:password'],
    ['https://h/api/v1?api_key=x', 'query string'],
    ['https://h/api/v1/tenants/a%2Fb/bikes', 'cannot contain "/"'],
    ['https://h/api/v1/tenants/%E0%A4%A/bikes', 'not valid percent-encoding'],
  ])('refuses %s', (raw, reason) => {
    const t = parseTarget(raw);
    expect(t.ok).toBe(false);
    if (!t.ok) {
      expect(t.reason).toContain(reason);
      expect(t.reason).not.toContain('secret');
    }
  });

  it('checks the version segment', () => {
    const v2 = parseTarget('http://h/api/v2');
    const v1 = parseTarget('http://h/api/v1');
    expect(v2.ok && endsWithVersion(v2.target)).toBe(false);
    expect(v1.ok && endsWithVersion(v1.target)).toBe(true);
  });
});

describe('looksLikeProduction', () => {
  it.each(['api.repair-service.pl', 'repair.example.com'])('%s looks like production', (h) => expect(looksLikeProduction(h)).toBe(true));
  it.each(['localhost', '127.0.0.1', 'sandbox.repair-service.pl', 'api-test.example.com', 'staging.example.com', 'api.dev.example.com'])(
    '%s does not',
    (h) => expect(looksLikeProduction(h)).toBe(false),
  );
});
