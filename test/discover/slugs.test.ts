/** The slug style, from --tenant and from a tenant listing a platform key reads. */
import { describe, expect, it } from 'vitest';
import { discover, ok, referenceApi } from './fixtures.js';

describe('slugStyle', () => {
  it.each([
    ['kebab', 'rowery-nowak', { kind: 'learned', reading: 'kebab', evidence: '--tenant "rowery-nowak"' }],
    ['snake', 'rowery_nowak', { kind: 'learned', reading: 'snake', evidence: '--tenant "rowery_nowak"' }],
    ['any', 'RoweryNowak', { kind: 'learned', reading: 'any', evidence: '--tenant "RoweryNowak" (e.g. "RoweryNowak")' }],
    ['any', 'sklep.pl', { kind: 'learned', reading: 'any', evidence: '--tenant "sklep.pl" (e.g. "sklep.pl")' }],
    ['unknown', 'nowak2', { kind: 'unknown', why: '--tenant "nowak2": no separator in any slug, so kebab or snake' }],
  ])('%s from --tenant %s', async (_style, tenant, expected) => {
    const { report } = await discover(referenceApi(), { tenant });
    expect(report.findings.slugStyle).toEqual(expected);
  });

  it('no slug seen without --tenant or a listing', async () => {
    const { report } = await discover(referenceApi({ key: 'tenant' }), { key: true });
    expect(report.findings.slugStyle).toEqual({
      kind: 'unknown',
      why: 'no slug seen: pass --tenant SLUG, or a platform key that can read a tenant listing',
    });
  });

  it("kebab from a platform key's tenant listing", async () => {
    const { report } = await discover(referenceApi({ key: 'platform' }), { key: true });
    expect(report.findings.slugStyle).toEqual({
      kind: 'learned',
      reading: 'kebab',
      evidence: 'GET /platform/tenants with the key lists "rowery-nowak", "serwis-kowalski", "cykl-gdansk"',
    });
  });

  it('snake from a listing nested in an object with ids, alongside a separator-free --tenant', async () => {
    const listing = ok({ tenants: [{ id: 'rowery_nowak' }, { id: 'cykl_gdansk' }, { id: 'serwis' }] });
    const { report } = await discover(referenceApi({ key: 'platform', overrides: { 'platform:tenants': listing } }), {
      key: true,
      tenant: 'serwis',
    });
    expect(report.findings.slugStyle).toEqual({
      kind: 'learned',
      reading: 'snake',
      evidence: '--tenant "serwis"; GET /platform/tenants with the key lists "rowery_nowak", "cykl_gdansk", "serwis"',
    });
  });

  it('a listing of plain strings, more than five shown as a count', async () => {
    const slugs = ['a-1', 'b-2', 'c-3', 'd-4', 'e-5', 'f-6'];
    const { report } = await discover(referenceApi({ key: 'platform', overrides: { 'platform:tenants': ok(slugs) } }), { key: true });
    expect(report.findings.slugStyle).toMatchObject({
      reading: 'kebab',
      evidence: 'GET /platform/tenants with the key lists "a-1", "b-2", "c-3", "d-4", "e-5", ... (6)',
    });
  });

  it('kebab and snake mixed: any', async () => {
    const { report } = await discover(referenceApi({ key: 'platform', tenants: ['rowery-nowak', 'cykl_gdansk'] }), { key: true });
    expect(report.findings.slugStyle).toMatchObject({
      kind: 'learned',
      reading: 'any',
      evidence: expect.stringMatching(/mixes kebab and snake, e\.g\. "cykl_gdansk"\)$/),
    });
  });

  it('the placeholder tenant of the made-up-key calls is not a slug the API gave', async () => {
    const { report } = await discover(referenceApi());
    expect(report.findings.slugStyle.kind).toBe('unknown');
  });
});
