import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TENANT_SLUG_MAX_LENGTH, isTenantSlug, tenantResourcePath, validateTenantSlug } from '../../../api/contract/index.js';
import { validSlug } from './arbitraries.js';

describe('validateTenantSlug properties (the format is not shown: refuse only what cannot be sent)', () => {
  it('accepts every slug a real API may use: snake_case, capitals, dots, spaces, Polish letters', () => {
    fc.assert(
      fc.property(validSlug, (slug) => {
        expect(validateTenantSlug(slug)).toEqual({ ok: true });
      }),
    );
  });

  it('never throws and agrees with isTenantSlug; a rejection always has a reason', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const check = validateTenantSlug(value);
        expect(isTenantSlug(value)).toBe(check.ok);
        if (!check.ok) expect(check.reason.length).toBeGreaterThan(0);
      }),
    );
  });

  it('an accepted slug is always exactly one path segment once encoded', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 50 }), (value) => {
        fc.pre(isTenantSlug(value));
        const path = tenantResourcePath(value, 'bikes');
        expect(path.split('/')).toHaveLength(4);
        expect(decodeURIComponent(path.split('/')[2] ?? '')).toBe(value);
      }),
    );
  });

  it('refuses only the unsendable: empty, "." and "..", a slash, control characters, lone surrogates, absurd length', () => {
    const mutate = fc.constantFrom(
      (s: string) => `${s}/x`,
      (s: string) => `${s}\n`,
      (s: string) => `\u0000${s}`,
      (s: string) => `${s}\u007f`,
      (s: string) => `${s}\ud800`,
      (s: string) => s.padEnd(TENANT_SLUG_MAX_LENGTH + 1, 'a'),
    );
    fc.assert(
      fc.property(validSlug, mutate, (slug, m) => {
        expect(validateTenantSlug(m(slug)).ok).toBe(false);
      }),
    );
    for (const bad of ['', '.', '..']) expect(validateTenantSlug(bad)).toMatchObject({ ok: false });
  });
});
