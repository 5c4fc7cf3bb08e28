import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TENANT_SLUG_MAX_LENGTH, isTenantSlug, validateTenantSlug } from '../../../api/contract/index.js';
import { validSlug } from './arbitraries.js';

describe('validateTenantSlug properties', () => {
  it('accepts every well-formed slug', () => {
    fc.assert(fc.property(validSlug, (slug) => {
      expect(validateTenantSlug(slug)).toEqual({ ok: true });
    }));
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

  it('rejects uppercase, underscores, edge or double hyphens, and over-long slugs', () => {
    const mutate = fc.constantFrom(
      (s: string) => s.toUpperCase() + 'A',
      (s: string) => `${s}_x`,
      (s: string) => `-${s}`,
      (s: string) => `${s}-`,
      (s: string) => `${s}--x`,
      (s: string) => `${s} `,
      (s: string) => `${s}/x`,
      (s: string) => `${s}ł`,
      (s: string) => s.padEnd(TENANT_SLUG_MAX_LENGTH + 1, 'a'),
    );
    fc.assert(fc.property(validSlug, mutate, (slug, m) => {
      expect(validateTenantSlug(m(slug)).ok).toBe(false);
    }));
    expect(validateTenantSlug('')).toMatchObject({ ok: false });
  });
});
