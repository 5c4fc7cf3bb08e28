/**
 * The spec's "not shown" points the sandbox can answer in more than one way. Each is a choice
 * with a closed set of values (or a checked free value); a dialect picks one value per choice.
 * Tools must be right under every plausible reading, and the sandbox speaks each of them so
 * tests can prove it. The first value of every choice is the reference behaviour.
 */
import { ERROR_CODE_PATTERN, MISSING_KEY_CODE, type SlugCheck, validateTenantSlug } from '../../api/contract/index.js';
import {
  type IndexAccessReading,
  PLATFORM_REFUSALS,
  RATE_LIMIT_HEADER_STYLES,
  SCOPE_REFUSALS,
  SLUG_PATTERNS,
  SLUG_STYLES,
  type SlugStyle,
  UNAUTHORIZED_STATUSES,
  platformSubPath,
} from '../../api/contract/readings.js';
import type { Readings } from '../../api/contract/server/index.js';

/** The sandbox speaks the two readings of whether / needs a key; `unknown` is a tool's setting. */
export const INDEX_ACCESS_VALUES = ['key', 'public'] as const satisfies readonly IndexAccessReading[];
export type IndexAccess = (typeof INDEX_ACCESS_VALUES)[number];

/** Platform sub-path segments are written as they travel in a URL, so `/docs` can list them verbatim. */
const PLATFORM_SEGMENTS = /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;

/**
 * One value per choice: everything that tells one dialect from another. The fields and what
 * they mean are the contract's (`Readings`); a sandbox speaks one of the two index readings.
 */
export type DialectSettings = Omit<Readings, 'index'> & { readonly index: IndexAccess };

type ValueParse<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem?: string };

/** One `KEY=VALUE` a dialect spec may carry. */
export interface Choice<F extends keyof DialectSettings> {
  readonly key: string;
  readonly field: F;
  readonly meaning: string;
  /** Listed in help, the first is the default; a free choice lists its examples here. */
  readonly values: readonly { readonly value: string; readonly meaning: string }[];
  /** What an error lists as allowed. */
  readonly allowed: string;
  parse(raw: string): ValueParse<DialectSettings[F]>;
  format(value: DialectSettings[F]): string;
}

export type AnyChoice = { [F in keyof DialectSettings]: Choice<F> }[keyof DialectSettings];

/**
 * A choice among a reading's values, as the contract names them (`values`, first = reference);
 * `meanings` only says how the sandbox speaks each, and must cover every one.
 */
function enumChoice<F extends keyof DialectSettings, V extends DialectSettings[F] & (string | number)>(
  key: string,
  field: F,
  meaning: string,
  values: readonly V[],
  meanings: Readonly<Record<V, string>>,
): Choice<F> {
  return {
    key,
    field,
    meaning,
    values: values.map((value) => ({ value: String(value), meaning: meanings[value] })),
    allowed: values.map(String).join(', '),
    parse(raw) {
      const found = values.find((value) => String(value) === raw);
      return found === undefined ? { ok: false } : { ok: true, value: found };
    },
    format: (value) => String(value),
  };
}

function parsePlatformPaths(raw: string): ValueParse<readonly string[]> {
  const subs: string[] = [];
  for (const part of raw.split('+')) {
    const check = platformSubPath(part);
    if (!check.ok) return { ok: false, problem: `"${part}" ${check.reason}` };
    if (!PLATFORM_SEGMENTS.test(check.sub))
      return { ok: false, problem: `"${part}" must be segments of letters, digits, ".", "_", "~" or "-" joined by "/"` };
    if (subs.includes(check.sub)) return { ok: false, problem: `"${check.sub}" is given twice` };
    subs.push(check.sub);
  }
  return { ok: true, value: subs };
}

/** Every choice, in the order help and canonical names list them. */
export const CHOICES: readonly AnyChoice[] = [
  enumChoice(
    'slug',
    'slug',
    'tenant slug style; a slug in another style gets 400 invalid_tenant_slug (after the key), demo slugs follow it',
    SLUG_STYLES,
    {
      kebab: 'lowercase letters, digits, single hyphens, 1-63 chars (rowery-nowak)',
      snake: 'lowercase letters, digits, single underscores (rowery_nowak)',
      any: "any slug the contract's validateTenantSlug accepts (demo slugs as kebab)",
    },
  ),
  enumChoice('index', 'index', 'whether GET / needs a key', INDEX_ACCESS_VALUES, {
    key: 'any valid key',
    public: 'answers 200 without a key, ignoring a presented one',
  }),
  enumChoice(
    'unauthorized-status',
    'unauthorizedStatus',
    'status sent with unauthorized (invalid or revoked key) and the missing-key code',
    UNAUTHORIZED_STATUSES,
    {
      401: '401 Unauthorized',
      403: '403 Forbidden',
    },
  ),
  {
    key: 'missing-key',
    field: 'missingKey',
    meaning: 'error code for a request with no key on a path that needs one (status: unauthorized-status)',
    values: [
      { value: 'unauthorized', meaning: 'the invalid-key code' },
      { value: 'CODE', meaning: `any other code matching ${ERROR_CODE_PATTERN.source}, e.g. missing_api_key` },
    ],
    allowed: `unauthorized or a code matching ${ERROR_CODE_PATTERN.source} (e.g. missing_api_key)`,
    parse: (raw) => (ERROR_CODE_PATTERN.test(raw) ? { ok: true, value: raw } : { ok: false }),
    format: (value) => value,
  },
  enumChoice('scope-refusal', 'scopeRefusal', 'what a key gets on a resource outside its scope', SCOPE_REFUSALS, {
    insufficient_scope: '403 insufficient_scope',
    forbidden: '403 forbidden',
    not_found: '404 not_found, hiding the resource',
  }),
  {
    key: 'platform-paths',
    field: 'platformPaths',
    meaning: 'sub-paths below /platform/ served, joined by "+"; last segment "keys": key listing, else tenant listing',
    values: [
      { value: 'tenants+keys', meaning: '/platform/tenants and /platform/keys' },
      { value: 'LIST', meaning: 'any list, e.g. admin/tenants+admin/keys or ops/tenants' },
    ],
    allowed: 'sub-paths below /platform/ joined by "+", e.g. tenants+keys or admin/tenants',
    parse: parsePlatformPaths,
    format: (value) => value.join('+'),
  },
  enumChoice('platform-refusal', 'platformRefusal', 'what a tenant key gets on /platform/*', PLATFORM_REFUSALS, {
    platform_key_required: '403 platform_key_required',
    not_found: '404 not_found',
    unauthorized: 'unauthorized-status with unauthorized',
  }),
  enumChoice(
    'rate-limit-headers',
    'rateLimitHeaders',
    'rate-limit headers on keyed answers and on 429s (limiter and rate-limit-storm fault)',
    RATE_LIMIT_HEADER_STYLES,
    {
      ietf: 'RateLimit-Limit/-Remaining/-Reset on every keyed answer, Retry-After seconds on 429',
      'ratelimit-field': 'RateLimit: "default";r=R;t=T and RateLimit-Policy: "default";q=Q;w=W, Retry-After seconds on 429',
      'x-ratelimit-epoch': 'X-RateLimit-Limit/-Remaining/-Reset (epoch seconds) on every keyed answer, no Retry-After',
      'x-ratelimit-delta': 'X-RateLimit-Limit/-Remaining/-Reset (seconds to wait) on every keyed answer, no Retry-After',
      'retry-after-date': 'nothing on normal answers, Retry-After as an HTTP date on 429',
      none: 'no rate-limit header at all, not even on 429',
    },
  ),
];

/** Today's behaviour: the first value of every choice (the contract lists each reading's reference first). */
export const REFERENCE_SETTINGS: DialectSettings = {
  slug: SLUG_STYLES[0],
  index: INDEX_ACCESS_VALUES[0],
  unauthorizedStatus: UNAUTHORIZED_STATUSES[0],
  missingKey: MISSING_KEY_CODE,
  scopeRefusal: SCOPE_REFUSALS[0],
  platformPaths: ['tenants', 'keys'],
  platformRefusal: PLATFORM_REFUSALS[0],
  rateLimitHeaders: RATE_LIMIT_HEADER_STYLES[0],
};

/** `KEY=VALUE` for one setting, as a dialect spec writes it. */
export function formatSetting(choice: AnyChoice, settings: DialectSettings): string {
  return `${choice.key}=${(choice.format as (value: unknown) => string)(settings[choice.field])}`;
}

/** `KEY=VALUE` for each setting that differs from `base`. */
export function overridesOf(settings: DialectSettings, base: DialectSettings): string[] {
  return CHOICES.filter((c) => formatSetting(c, settings) !== formatSetting(c, base)).map((c) => formatSetting(c, settings));
}

/** A kebab slug is a DNS label, so it can become a host name. */
const KEBAB_SLUG_MAX_LENGTH = 63;

const STYLE_RULE: Readonly<Record<Exclude<SlugStyle, 'any'>, { readonly pattern: RegExp; readonly reason: string }>> = {
  kebab: { pattern: SLUG_PATTERNS.kebab, reason: 'must be lowercase letters, digits and single hyphens (e.g. "rowery-nowak")' },
  snake: { pattern: SLUG_PATTERNS.snake, reason: 'must be lowercase letters, digits and single underscores (e.g. "rowery_nowak")' },
};

/**
 * Whether `slug` is a tenant slug in `style`. The contract takes any slug that fits in one path
 * segment (the format is "not shown"); a real API holds its own to one style, and so does the
 * sandbox, per dialect: the contract's check first, then the style's.
 */
export function checkSlugStyle(slug: string, style: SlugStyle): SlugCheck {
  const base = validateTenantSlug(slug);
  if (!base.ok || style === 'any') return base;
  if (style === 'kebab' && slug.length > KEBAB_SLUG_MAX_LENGTH)
    return { ok: false, reason: `is longer than ${KEBAB_SLUG_MAX_LENGTH} characters` };
  const rule = STYLE_RULE[style];
  return rule.pattern.test(slug) ? { ok: true } : { ok: false, reason: rule.reason };
}

/** A demo slug (written kebab) in the dialect's style; `any` keeps kebab. */
export function styleDemoSlug(kebabSlug: string, style: SlugStyle): string {
  return style === 'snake' ? kebabSlug.replace(/-/g, '_') : kebabSlug;
}
