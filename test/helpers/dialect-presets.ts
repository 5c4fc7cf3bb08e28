/**
 * The dialect presets as agreed (written out here by hand, not imported), so tests can check
 * the parser against them and derive expectations from them without trusting the sandbox.
 */
import type { DialectSettings } from '../../sandbox/dialect/index.js';

const REFERENCE: DialectSettings = {
  slug: 'kebab',
  index: 'key',
  unauthorizedStatus: 401,
  missingKey: 'unauthorized',
  scopeRefusal: 'insufficient_scope',
  platformPaths: ['tenants', 'keys'],
  platformRefusal: 'platform_key_required',
  rateLimitHeaders: 'ietf',
};

export const PRESET_TABLE: Readonly<Record<string, DialectSettings>> = {
  reference: REFERENCE,
  'snake-public': {
    slug: 'snake',
    index: 'public',
    unauthorizedStatus: 403,
    missingKey: 'missing_api_key',
    scopeRefusal: 'forbidden',
    platformPaths: ['admin/tenants'],
    platformRefusal: 'not_found',
    rateLimitHeaders: 'x-ratelimit-epoch',
  },
  'strict-hiding': {
    slug: 'kebab',
    index: 'key',
    unauthorizedStatus: 401,
    missingKey: 'missing_credentials',
    scopeRefusal: 'not_found',
    platformPaths: ['ops/tenants', 'ops/keys'],
    platformRefusal: 'unauthorized',
    rateLimitHeaders: 'ratelimit-field',
  },
  gateway: {
    slug: 'any',
    index: 'public',
    unauthorizedStatus: 403,
    missingKey: 'unauthorized',
    scopeRefusal: 'insufficient_scope',
    platformPaths: ['tenants'],
    platformRefusal: 'platform_key_required',
    rateLimitHeaders: 'retry-after-date',
  },
  legacy: {
    slug: 'snake',
    index: 'key',
    unauthorizedStatus: 401,
    missingKey: 'unauthorized',
    scopeRefusal: 'forbidden',
    platformPaths: ['tenants', 'keys'],
    platformRefusal: 'not_found',
    rateLimitHeaders: 'x-ratelimit-delta',
  },
  bare: { ...REFERENCE, rateLimitHeaders: 'none' },
};

/** The demo slugs as the brief words them per style: kebab and any as written, snake with underscores. */
export function demoSlugIn(style: DialectSettings['slug'], kebab: string): string {
  return style === 'snake' ? kebab.replace(/-/g, '_') : kebab;
}
