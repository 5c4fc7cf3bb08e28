/**
 * `/docs` tells the truth about the running dialect, in every preset: the concrete platform
 * paths tools learn from it, index access (in the authorization model and the endpoint table),
 * the error codes and statuses it sends, plain-text statuses and rate-limit header names. The
 * expectations come from the settings as written in dialect-presets.ts.
 */
import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_HEADERS as H } from '../../api/contract/index.js';
import { platformPathsInDocs } from '../../api/contract/readings.js';
import type { DialectSettings } from '../../sandbox/dialect/index.js';
import { PRESET_TABLE } from '../helpers/dialect-presets.js';
import { docsOf, inDialect } from './dialect-helpers.js';
import { expectedErrorTable } from './expected.js';

const HEADER_NAMES: Readonly<Record<DialectSettings['rateLimitHeaders'], readonly string[]>> = {
  ietf: [H.retryAfter, H.limit, H.remaining, H.reset],
  'ratelimit-field': [H.retryAfter, H.field, H.policy],
  'x-ratelimit-epoch': [H.xLimit, H.xRemaining, H.xReset],
  'x-ratelimit-delta': [H.xLimit, H.xRemaining, H.xReset],
  'retry-after-date': [H.retryAfter],
  none: [],
};

describe.each(Object.entries(PRESET_TABLE))('/docs in dialect %s', (name, d) => {
  it('describes exactly what this dialect sends', async () => {
    await inDialect(name, async (s) => {
      const docs = await docsOf(s);
      expect(docs['platformPaths']).toEqual(d.platformPaths.map((sub) => `/platform/${sub}`));
      expect(platformPathsInDocs(docs)).toEqual(d.platformPaths);
      expect(docs.authorization['indexAccess']).toBe(d.index);
      const index = (docs['endpoints'] as { path: string; access: string }[]).find((e) => e.path === '/');
      expect(index?.access).toBe(d.index === 'public' ? 'public' : 'any_key');
      expect(new Set(docs.authorization['errors'] as unknown[])).toEqual(new Set(expectedErrorTable(d)));
      expect(docs.authorization['errors']).toHaveLength(expectedErrorTable(d).length);
      expect(docs.authorization).not.toHaveProperty('plainTextErrors');
      expect([...(docs.authorization['rateLimitHeaders'] as string[])].sort()).toEqual([...HEADER_NAMES[d.rateLimitHeaders]].sort());
      expect({ platformPaths: s.dialect.platformPaths, indexAccess: s.dialect.index }).toEqual({
        platformPaths: d.platformPaths,
        indexAccess: d.index,
      });
    });
  });
});

describe('/docs in the reference dialect', () => {
  it('keeps its rules as before', async () => {
    await inDialect('reference', async (s) => {
      expect((await docsOf(s)).authorization['rules']).toEqual([
        'Brak klucza, nieprawidłowy lub unieważniony klucz: 401 unauthorized.',
        'Klucz najemcy użyty dla innego najemcy: 403 tenant_key_tenant_mismatch.',
        'Klucz najemcy na /platform/*: 403 platform_key_required.',
        'Zasób spoza zakresu klucza: 403 insufficient_scope.',
        '/docs jest publiczny; / wymaga dowolnego ważnego klucza.',
      ]);
    });
  });
});
