/**
 * Each access choice of a dialect, each value over real HTTP: slug style, index access, the
 * unauthorized status, the missing-key code, scope and platform refusals and platform paths.
 * Every other choice stays at its reference value, so each test shows one choice at work.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { platformPathsInDocs } from '../../api/contract/readings.js';
import { demoData } from '../../sandbox/demo-data.js';
import { startSandbox } from '../../sandbox/index.js';
import { docsOf, get, inDialect } from './dialect-helpers.js';

const fixture = (path: string): string => fileURLToPath(new URL(`./fixtures/${path}`, import.meta.url));
const UNKNOWN = { key: `rs_test_${'0'.repeat(32)}` };

describe('slug', () => {
  it.each([
    ['kebab', ['rowery-nowak', 'serwis-kowalski', 'cykl-gdansk'], 'rowery_nowak'],
    ['snake', ['rowery_nowak', 'serwis_kowalski', 'cykl_gdansk'], 'rowery-nowak'],
  ])('%s: demo tenants and keys follow it; a slug in another style gets 400 invalid_tenant_slug', async (style, tenants, offStyle) => {
    await inDialect(`slug=${style}`, async (s) => {
      expect(s.tenants).toEqual(tenants);
      expect(s.key('nowak-test').tenant).toBe(tenants[0]);
      expect((await get(s, `/tenants/${tenants[0]}/clients`, 'nowak-test')).status).toBe(200);
      expect(await get(s, `/tenants/${offStyle}/clients`, 'platform-test')).toMatchObject({ status: 400, code: 'invalid_tenant_slug' });
      expect(await get(s, `/tenants/${offStyle}/clients`)).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(await get(s, '/tenants/Rowery.Nowak/clients', 'platform-test')).toMatchObject({ status: 400, code: 'invalid_tenant_slug' });
      expect((await docsOf(s))['tenantSlug']).toMatchObject({ example: tenants[0] });
    });
  });

  it("the key is judged before the slug: no key or an invalid one is unauthorized, another tenant's key a mismatch, a platform key learns the slug is bad", async () => {
    await inDialect('reference', async (s) => {
      const path = '/tenants/%C3%82/clients';
      expect(await get(s, path)).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(await get(s, path, UNKNOWN)).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(await get(s, path, 'nowak-revoked-test')).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(await get(s, path, 'kowalski-test')).toMatchObject({ status: 403, code: 'tenant_key_tenant_mismatch' });
      expect(await get(s, path, 'platform-test')).toMatchObject({ status: 400, code: 'invalid_tenant_slug' });
      expect(await get(s, '/tenants/%ZZ/clients', 'nowak-test')).toMatchObject({ status: 403, code: 'tenant_key_tenant_mismatch' });
    });
  });

  it('kebab refuses a slug longer than 63 characters', async () => {
    await inDialect('reference', async (s) => {
      expect(await get(s, `/tenants/${'a'.repeat(64)}/clients`, 'platform-test')).toMatchObject({
        status: 400,
        code: 'invalid_tenant_slug',
      });
      expect(await get(s, `/tenants/${'a'.repeat(63)}/clients`, 'platform-test')).toMatchObject({ status: 404, code: 'not_found' });
    });
  });

  it('any: every slug the contract accepts is routed (unknown ones are 404); demo slugs stay kebab', async () => {
    await inDialect('slug=any', async (s) => {
      expect(s.tenants).toEqual(['rowery-nowak', 'serwis-kowalski', 'cykl-gdansk']);
      for (const slug of ['Rowery.Nowak', 'rowery_nowak', 'RoweryNowak', 'a'.repeat(200)]) {
        expect(await get(s, `/tenants/${slug}/clients`, 'platform-test')).toMatchObject({ status: 404, code: 'not_found' });
      }
      expect(await get(s, '/tenants/%ZZ/clients', 'platform-test')).toMatchObject({ status: 400, code: 'invalid_tenant_slug' });
      expect((await get(s, '/tenants/rowery-nowak/clients', 'nowak-test')).status).toBe(200);
    });
  });

  it('the records are the same in every style: only the slug changes', () => {
    const kebab = demoData('kebab');
    const snake = demoData('snake');
    expect(snake.tenants.map((t) => t.records)).toEqual(kebab.tenants.map((t) => t.records));
  });

  it('a --data file whose slugs break the style is refused naming the path; one in the style is served', async () => {
    const error = (await startSandbox({ dialect: 'slug=snake', dataFile: fixture('data/valid.yaml') }).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ name: 'SandboxConfigError', option: 'data' });
    expect(error.message).toContain(
      'tenants[0].slug: tenant slug "rowery-testowe" must be lowercase letters, digits and single underscores',
    );
    expect(error.message).toContain('keys[1].tenant: tenant slug "rowery-testowe"');
    await expect(startSandbox({ dataFile: fixture('dialect/valid-snake.yaml') })).rejects.toMatchObject({
      option: 'data',
      message: expect.stringContaining('tenants[0].slug'),
    });
    await inDialect(
      'legacy',
      async (s) => {
        expect(s.tenants).toEqual(['rowery_testowe']);
        expect((await get(s, '/tenants/rowery_testowe/clients', 'testowe')).status).toBe(200);
      },
      { dataFile: fixture('dialect/valid-snake.yaml') },
    );
  });
});

describe('index', () => {
  it('key: GET / needs a valid key; /docs says so', async () => {
    await inDialect('index=key', async (s) => {
      expect(await get(s, '/')).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(await get(s, '/', UNKNOWN)).toMatchObject({ status: 401, code: 'unauthorized' });
      expect((await get(s, '/', 'gdansk-test')).status).toBe(200);
      const docs = await docsOf(s);
      expect(docs.authorization['indexAccess']).toBe('key');
      expect((docs['endpoints'] as { path: string; access: string }[]).find((e) => e.path === '/')?.access).toBe('any_key');
      expect(s.dialect.index).toBe('key');
    });
  });

  it('public: GET / answers anyone, ignores a presented key and does not count it; /docs says so', async () => {
    await inDialect(
      'index=public',
      async (s) => {
        for (const who of [undefined, UNKNOWN, 'nowak-revoked-test', 'nowak-test']) {
          const answer = await get(s, '/', who);
          expect(answer).toMatchObject({ status: 200, data: { docs: '/api/v1/docs' }, rateHeaders: [] });
        }
        expect((await get(s, '/tenants/rowery-nowak/clients', 'nowak-test')).status).toBe(200);
        expect((await get(s, '/tenants/rowery-nowak/clients', 'nowak-test')).status).toBe(429);
        const docs = await docsOf(s);
        expect(docs.authorization['indexAccess']).toBe('public');
        expect((docs['endpoints'] as { path: string; access: string }[]).find((e) => e.path === '/')?.access).toBe('public');
        expect(s.dialect.index).toBe('public');
      },
      { rateLimit: '1/1h' },
    );
  });
});

describe('unauthorized-status', () => {
  it.each([401, 403])(
    '%i: sent with unauthorized for unknown, revoked and malformed keys and with the missing-key code',
    async (status) => {
      await inDialect(`unauthorized-status=${status}`, async (s) => {
        for (const who of [UNKNOWN, 'nowak-revoked-test', { key: 'a b' }, undefined]) {
          expect(await get(s, '/tenants/rowery-nowak/clients', who)).toMatchObject({ status, code: 'unauthorized' });
        }
        expect(await get(s, '/tenants/serwis-kowalski/clients', 'nowak-test')).toMatchObject({
          status: 403,
          code: 'tenant_key_tenant_mismatch',
        });
        expect((await docsOf(s)).authorization['errors']).toContainEqual({ code: 'unauthorized', status });
      });
    },
  );
});

describe('missing-key', () => {
  it.each(['unauthorized', 'missing_api_key', 'x'])(
    '%s: the code for no key on every path that needs one; an invalid key is still unauthorized',
    async (code) => {
      await inDialect(`missing-key=${code},unauthorized-status=403`, async (s) => {
        for (const path of ['/', '/platform/tenants', '/tenants/rowery-nowak/logs'])
          expect(await get(s, path)).toMatchObject({ status: 403, code });
        expect(await get(s, '/', UNKNOWN)).toMatchObject({ status: 403, code: 'unauthorized' });
        expect((await get(s, '/docs')).status).toBe(200);
        expect((await docsOf(s)).authorization['errors']).toContainEqual({ code, status: 403 });
      });
    },
  );
});

describe('scope-refusal', () => {
  it.each([
    ['insufficient_scope', 403],
    ['forbidden', 403],
    ['not_found', 404],
  ])('%s: a key on a resource outside its scope gets %i; another tenant is still a mismatch first', async (code, status) => {
    await inDialect(`scope-refusal=${code}`, async (s) => {
      expect(await get(s, '/tenants/rowery-nowak/logs', 'nowak-nologs-test')).toMatchObject({ status, code });
      expect((await get(s, '/tenants/rowery-nowak/clients', 'nowak-nologs-test')).status).toBe(200);
      expect(await get(s, '/tenants/serwis-kowalski/logs', 'nowak-nologs-test')).toMatchObject({
        status: 403,
        code: 'tenant_key_tenant_mismatch',
      });
      const errors = (await docsOf(s)).authorization['errors'] as { code: string }[];
      expect(errors).toContainEqual({ code, status });
      if (code !== 'insufficient_scope') expect(errors.map((e) => e.code)).not.toContain('insufficient_scope');
    });
  });

  it('not_found hides the resource: the answer reads like a missing one', async () => {
    await inDialect('scope-refusal=not_found', async (s) => {
      const hidden = await get(s, '/tenants/rowery-nowak/logs', 'nowak-nologs-test');
      expect(JSON.parse(hidden.text)).toEqual({ ok: false, error: { code: 'not_found', message: 'Nie znaleziono zasobu.' } });
    });
  });
});

describe('platform-paths', () => {
  it.each([
    ['tenants+keys', ['tenants', 'keys'], ['nieznane']],
    ['admin/tenants+admin/keys', ['admin/tenants', 'admin/keys'], ['tenants', 'keys', 'admin']],
    ['ops/tenants', ['ops/tenants'], ['tenants', 'keys', 'ops/keys']],
    ['keys+x/tenants/keys', ['keys', 'x/tenants/keys'], ['tenants', 'x/tenants']],
  ])('%s: served with the listing its last segment names, others 404; /docs lists the full paths', async (spec, served, unserved) => {
    await inDialect(`platform-paths=${spec}`, async (s) => {
      expect(s.dialect.platformPaths).toEqual(served);
      for (const sub of served) {
        const answer = await get(s, `/platform/${sub}`, 'platform-test');
        const field = sub.endsWith('keys') ? 'alias' : 'slug';
        expect(answer.status, sub).toBe(200);
        expect((answer.data as unknown[]).length, sub).toBeGreaterThan(0);
        expect(
          (answer.data as Record<string, unknown>[]).every((item) => typeof item[field] === 'string'),
          sub,
        ).toBe(true);
      }
      for (const sub of unserved)
        expect(await get(s, `/platform/${sub}`, 'platform-test'), sub).toMatchObject({ status: 404, code: 'not_found' });
      const docs = await docsOf(s);
      expect(docs['platformPaths']).toEqual(served.map((sub) => `/platform/${sub}`));
      expect(platformPathsInDocs(docs)).toEqual(served);
    });
  });
});

describe('platform-refusal', () => {
  it.each([
    ['platform_key_required', '', 403, 'platform_key_required'],
    ['not_found', '', 404, 'not_found'],
    ['unauthorized', '', 401, 'unauthorized'],
    ['unauthorized', ',unauthorized-status=403', 403, 'unauthorized'],
  ])('%s%s: a tenant key on /platform/* gets %i %s, on served and unserved paths alike', async (value, extra, status, code) => {
    await inDialect(`platform-refusal=${value}${extra}`, async (s) => {
      for (const path of ['/platform/tenants', '/platform/keys', '/platform/nieznane']) {
        expect(await get(s, path, 'nowak-test'), path).toMatchObject({ status, code });
      }
      expect((await get(s, '/platform/tenants', 'platform-test')).status).toBe(200);
      const rules = (await docsOf(s)).authorization['rules'] as string[];
      expect(rules).toContain(`Klucz najemcy na /platform/*: ${status} ${code}.`);
    });
  });
});
