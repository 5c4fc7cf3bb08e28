/** `--dialect` parsing: every preset as agreed, overrides, and one case per bad input with its exact message. */
import { describe, expect, it } from 'vitest';
import { CHOICES, PRESET_NAMES, REFERENCE_SETTINGS, type Dialect, dialectHelpLines, parseDialect } from '../../sandbox/dialect/index.js';
import {
  PLATFORM_REFUSALS,
  RATE_LIMIT_HEADER_STYLES,
  READING_KEYS,
  SCOPE_REFUSALS,
  SLUG_STYLES,
  UNAUTHORIZED_STATUSES,
} from '../../api/contract/readings.js';
import { PRESET_TABLE } from '../helpers/dialect-presets.js';

function parsed(text: string): Dialect {
  const result = parseDialect(text);
  if (!result.ok) throw new Error(result.error);
  return result.dialect;
}

const PRESETS_LIST = 'reference, snake-public, strict-hiding, gateway, legacy, bare';
const KEYS_LIST = 'slug, index, unauthorized-status, missing-key, scope-refusal, platform-paths, platform-refusal, rate-limit-headers';

describe('dialect choices', () => {
  it.each([
    ['slug', SLUG_STYLES],
    ['unauthorized-status', UNAUTHORIZED_STATUSES],
    ['scope-refusal', SCOPE_REFUSALS],
    ['platform-refusal', PLATFORM_REFUSALS],
    ['rate-limit-headers', RATE_LIMIT_HEADER_STYLES],
  ] as const)('%s offers exactly the readings the contract names, in its order', (key, readings) => {
    expect(CHOICES.find((c) => c.key === key)?.values.map((v) => v.value)).toEqual(readings.map(String));
  });
});

describe('dialect keys', () => {
  it("are the contract's reading keys, one per field, and no error-bodies (spec §1: every answer is the envelope)", () => {
    expect(CHOICES.map((c) => [c.field, c.key])).toEqual(Object.entries(READING_KEYS));
  });
});

describe('dialect presets', () => {
  it('are exactly the agreed six, in that order', () => {
    expect([...PRESET_NAMES]).toEqual(Object.keys(PRESET_TABLE));
  });

  it.each(Object.entries(PRESET_TABLE))('%s parses to its agreed settings, named by itself', (name, settings) => {
    expect(parsed(name)).toEqual({ name, preset: name, ...settings });
  });

  it('reference is the first value of every choice, and what no dialect at all means', () => {
    for (const choice of CHOICES)
      expect(`${choice.key}=${choice.values[0]?.value}`).toBe(`${choice.key}=${choice.format(REFERENCE_SETTINGS[choice.field] as never)}`);
    expect(parsed('')).toEqual(parsed('reference'));
  });
});

describe('dialect overrides', () => {
  it('a preset then KEY=VALUE changes that one setting; the name lists it', () => {
    expect(parsed('reference,index=public')).toEqual({ ...parsed('reference'), name: 'reference,index=public', index: 'public' });
  });

  it('without a preset the overrides apply to reference, named canonically in choice order', () => {
    const d = parsed('rate-limit-headers=none,slug=snake');
    expect(d).toMatchObject({
      preset: 'reference',
      slug: 'snake',
      rateLimitHeaders: 'none',
      name: 'reference,slug=snake,rate-limit-headers=none',
    });
  });

  it('an override equal to the preset is dropped from the name', () => {
    expect(parsed('snake-public,slug=snake').name).toBe('snake-public');
  });

  it('parses every kind of value', () => {
    const d = parsed(
      'legacy,unauthorized-status=403,missing-key=missing_api_key,scope-refusal=not_found,platform-paths=/platform/admin/tenants+admin/keys/,platform-refusal=unauthorized',
    );
    expect(d).toMatchObject({
      preset: 'legacy',
      unauthorizedStatus: 403,
      missingKey: 'missing_api_key',
      scopeRefusal: 'not_found',
      platformPaths: ['admin/tenants', 'admin/keys'],
      platformRefusal: 'unauthorized',
    });
    expect(d.name).toBe(
      'legacy,unauthorized-status=403,missing-key=missing_api_key,scope-refusal=not_found,platform-paths=admin/tenants+admin/keys,platform-refusal=unauthorized',
    );
  });

  it('tolerates spaces around items and stray commas', () => {
    expect(parsed(' gateway , index=key ,')).toEqual(parsed('gateway,index=key'));
  });

  it('its name parses back to the same dialect', () => {
    for (const text of ['strict-hiding,slug=any', 'slug=snake,platform-paths=ops/tenants', 'bare,missing-key=no_key']) {
      expect(parsed(parsed(text).name)).toEqual(parsed(text));
    }
  });
});

describe('bad dialects', () => {
  it.each([
    ['teleport', `unknown preset "teleport"; allowed presets: ${PRESETS_LIST}`],
    ['Reference', `unknown preset "Reference"; allowed presets: ${PRESETS_LIST}`],
    ['reference,colour=red', `unknown key "colour" in "colour=red"; allowed keys: ${KEYS_LIST}`],
    ['=snake', `unknown key "" in "=snake"; allowed keys: ${KEYS_LIST}`],
    ['slug=snake,legacy', `"legacy" is not KEY=VALUE: a preset may only come first; allowed presets: ${PRESETS_LIST}`],
    ['slug=snake,slug=any', 'key "slug" is given twice'],
    ['slug=camel', 'slug: value "camel" is not allowed; allowed values: kebab, snake, any'],
    ['slug=', 'slug: value "" is not allowed; allowed values: kebab, snake, any'],
    ['index=maybe', 'index: value "maybe" is not allowed; allowed values: key, public'],
    ['unauthorized-status=404', 'unauthorized-status: value "404" is not allowed; allowed values: 401, 403'],
    [
      'missing-key=Missing-Key',
      'missing-key: value "Missing-Key" is not allowed; allowed values: unauthorized or a code matching ^[a-z][a-z0-9_]{0,63}$ (e.g. missing_api_key)',
    ],
    ['scope-refusal=hide', 'scope-refusal: value "hide" is not allowed; allowed values: insufficient_scope, forbidden, not_found'],
    [
      'platform-paths=tenants+../x',
      'platform-paths: value "tenants+../x" is not allowed ("../x" cannot contain "." or ".." segments); allowed values: sub-paths below /platform/ joined by "+", e.g. tenants+keys or admin/tenants',
    ],
    [
      'platform-paths=',
      'platform-paths: value "" is not allowed ("" is empty (give the part below /platform/, e.g. tenants)); allowed values: sub-paths below /platform/ joined by "+", e.g. tenants+keys or admin/tenants',
    ],
    [
      'platform-paths=a b',
      'platform-paths: value "a b" is not allowed ("a b" must be segments of letters, digits, ".", "_", "~" or "-" joined by "/"); allowed values: sub-paths below /platform/ joined by "+", e.g. tenants+keys or admin/tenants',
    ],
    [
      'platform-paths=admin//keys',
      'platform-paths: value "admin//keys" is not allowed ("admin//keys" must be segments of letters, digits, ".", "_", "~" or "-" joined by "/"); allowed values: sub-paths below /platform/ joined by "+", e.g. tenants+keys or admin/tenants',
    ],
    [
      'platform-paths=tenants+/platform/tenants',
      'platform-paths: value "tenants+/platform/tenants" is not allowed ("tenants" is given twice); allowed values: sub-paths below /platform/ joined by "+", e.g. tenants+keys or admin/tenants',
    ],
    [
      'platform-refusal=ignore',
      'platform-refusal: value "ignore" is not allowed; allowed values: platform_key_required, not_found, unauthorized',
    ],
    [
      'rate-limit-headers=draft',
      'rate-limit-headers: value "draft" is not allowed; allowed values: ietf, ratelimit-field, x-ratelimit-epoch, x-ratelimit-delta, retry-after-date, none',
    ],
    ['error-bodies=plain', `unknown key "error-bodies" in "error-bodies=plain"; allowed keys: ${KEYS_LIST}`],
  ])('%s', (text, error) => {
    expect(parseDialect(text)).toEqual({ ok: false, error });
  });
});

describe('dialect help', () => {
  it('lists every key with every value and its default, and every preset with what it sets', () => {
    const text = dialectHelpLines().join('\n');
    for (const choice of CHOICES) {
      expect(text).toContain(`${choice.key}: `);
      for (const v of choice.values) expect(text).toContain(v.value);
      expect(text).toMatch(new RegExp(`${choice.values[0]!.value.replace(/[+]/g, '\\+')} +.*\\(default\\)`));
    }
    for (const name of PRESET_NAMES) expect(text).toContain(`  ${name} `);
    expect(text).toContain('sets: all defaults');
    expect(text.replace(/,\n\s+/g, ', ')).toContain(
      'sets: slug=snake, index=public, unauthorized-status=403, missing-key=missing_api_key, scope-refusal=forbidden, platform-paths=admin/tenants, platform-refusal=not_found, rate-limit-headers=x-ratelimit-epoch',
    );
    expect(text).toContain('sets: rate-limit-headers=none');
  });
});
