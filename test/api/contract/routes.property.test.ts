import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE_PATH, TENANT_RESOURCES, isTenantSlug, platformPath, tenantResourcePath } from '../../../api/contract/index.js';
import { matchRoute } from '../../../api/contract/server/index.js';
import { validSlug } from './arbitraries.js';

const resource = fc.constantFrom(...TENANT_RESOURCES);
const trailing = fc.stringMatching(/^\/{0,3}$/);

/** A lone surrogate cannot even be put into a URL; everything else can. */
function encodable(s: string): boolean {
  try {
    encodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}

describe('matchRoute properties', () => {
  it('never throws', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (path) => void matchRoute(path)));
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (rest) => void matchRoute(`${BASE_PATH}/${rest}`)));
  });

  it('finds the tenant and resource of every tenant path, trailing slashes tolerated', () => {
    fc.assert(
      fc.property(validSlug, resource, trailing, (tenant, r, slash) => {
        expect(matchRoute(`${BASE_PATH}${tenantResourcePath(tenant, r)}${slash}`)).toEqual({ kind: 'tenant', tenant, resource: r });
      }),
    );
  });

  it('percent-encoded slugs are decoded before validation', () => {
    fc.assert(
      fc.property(validSlug, resource, (tenant, r) => {
        // Every UTF-8 byte percent-encoded, even those that need not be.
        const encoded = [...Buffer.from(tenant, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
        expect(matchRoute(`${BASE_PATH}/tenants/${encoded}/${r}`)).toEqual({ kind: 'tenant', tenant, resource: r });
      }),
    );
  });

  it('an unsendable slug (encoded into one segment) is invalid_tenant, never a tenant route', () => {
    const bad = fc.string({ unit: 'binary', minLength: 1 }).filter((s) => !isTenantSlug(s) && encodable(s));
    fc.assert(
      fc.property(bad, resource, (slug, r) => {
        const route = matchRoute(`${BASE_PATH}/tenants/${encodeURIComponent(slug)}/${r}`);
        expect(route.kind).toBe('invalid_tenant');
      }),
    );
  });

  it('index, docs and platform sub-paths', () => {
    fc.assert(
      fc.property(trailing, fc.constantFrom('tenants', 'keys', 'admin/tenants'), (slash, sub) => {
        expect(matchRoute(`${BASE_PATH}${slash}`)).toEqual({ kind: 'index' });
        expect(matchRoute(`${BASE_PATH}/docs${slash}`)).toEqual({ kind: 'docs' });
        expect(matchRoute(`${BASE_PATH}${platformPath(sub)}${slash}`)).toEqual({ kind: 'platform', subpath: sub });
      }),
    );
  });

  it('nothing outside the base path matches', () => {
    fc.assert(
      fc.property(fc.string(), (path) => {
        fc.pre(path !== BASE_PATH && !path.startsWith(`${BASE_PATH}/`));
        expect(matchRoute(path)).toEqual({ kind: 'unknown' });
      }),
    );
  });
});
