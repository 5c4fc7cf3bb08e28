/**
 * Named dialects: coherent sets of readings an API in the wild could plausibly follow. Other
 * code and tests refer to these names and settings, so they change only deliberately. Also the
 * `--help` text for dialects, written from the tables so it cannot drift from them.
 */
import { wrap } from '../../lib/index.js';
import { CHOICES, type DialectSettings, REFERENCE_SETTINGS, overridesOf } from './choices.js';

export const PRESET_NAMES = ['reference', 'snake-public', 'strict-hiding', 'gateway', 'legacy', 'bare'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** `about`: one line for `--help`, the kind of API it stands for. */
export const PRESETS: Readonly<Record<PresetName, { readonly settings: DialectSettings; readonly about: string }>> = {
  reference: { about: "the sandbox's own readings (every default)", settings: REFERENCE_SETTINGS },
  'snake-public': {
    about: 'snake_case slugs, a public index, 403 for bad keys, X-RateLimit-* with epoch resets',
    settings: {
      slug: 'snake',
      index: 'public',
      unauthorizedStatus: 403,
      missingKey: 'missing_api_key',
      scopeRefusal: 'forbidden',
      platformPaths: ['admin/tenants'],
      platformRefusal: 'not_found',
      rateLimitHeaders: 'x-ratelimit-epoch',
    },
  },
  'strict-hiding': {
    about: 'hides what a key may not see behind 404s, a missing_credentials code, the RateLimit field',
    settings: {
      slug: 'kebab',
      index: 'key',
      unauthorizedStatus: 401,
      missingKey: 'missing_credentials',
      scopeRefusal: 'not_found',
      platformPaths: ['ops/tenants', 'ops/keys'],
      platformRefusal: 'unauthorized',
      rateLimitHeaders: 'ratelimit-field',
    },
  },
  gateway: {
    about: 'behind an API gateway: any slug, a public index, 403 for bad keys, dated Retry-After',
    settings: {
      slug: 'any',
      index: 'public',
      unauthorizedStatus: 403,
      missingKey: 'unauthorized',
      scopeRefusal: 'insufficient_scope',
      platformPaths: ['tenants'],
      platformRefusal: 'platform_key_required',
      rateLimitHeaders: 'retry-after-date',
    },
  },
  legacy: {
    about: 'an older stack: snake_case slugs, forbidden, hidden platform, X-RateLimit-* with delta resets',
    settings: {
      slug: 'snake',
      index: 'key',
      unauthorizedStatus: 401,
      missingKey: 'unauthorized',
      scopeRefusal: 'forbidden',
      platformPaths: ['tenants', 'keys'],
      platformRefusal: 'not_found',
      rateLimitHeaders: 'x-ratelimit-delta',
    },
  },
  bare: {
    about: 'the reference without any rate-limit header',
    settings: { ...REFERENCE_SETTINGS, rateLimitHeaders: 'none' },
  },
};

export function isPresetName(value: string): value is PresetName {
  return (PRESET_NAMES as readonly string[]).includes(value);
}

/** Lines listing every choice with its values and default, then every preset with what it sets. */
export function dialectHelpLines(): string[] {
  const lines = ['Dialect keys (KEY: VALUE meaning; the first value is the default):'];
  for (const choice of CHOICES) {
    lines.push(`  ${choice.key}: ${choice.meaning}`);
    choice.values.forEach((v, i) => lines.push(`    ${v.value.padEnd(22)} ${v.meaning}${i === 0 ? ' (default)' : ''}`));
  }
  lines.push('Dialect presets:');
  for (const name of PRESET_NAMES) {
    lines.push(`  ${name.padEnd(24)} ${PRESETS[name].about}`);
    const overrides = overridesOf(PRESETS[name].settings, REFERENCE_SETTINGS);
    const sets = overrides.length === 0 ? ['all defaults'] : wrap(overrides.join(', '), 81);
    sets.forEach((line, i) => lines.push(`  ${''.padEnd(24)} ${i === 0 ? 'sets: ' : '      '}${line}`));
  }
  return lines;
}
