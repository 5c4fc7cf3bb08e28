/**
 * Settings for the spec's "not shown" points that change what a tool reports. Each has a
 * default that is correct under every reading, and the reason for it; tools read them from
 * here, never restate them. The full table of readings is in README.md beside this file.
 */
import { isTenantSlug } from './api.js';

/**
 * The readings of each open point, named once. The sandbox's dialects speak them, `discover`
 * reports them and the monitor's settings take them; the first value is the sandbox's reference.
 */

/**
 * READING (spec §5: "whether the index endpoint requires a key: not shown"); `unknown` asserts
 * neither.
 */
export const INDEX_ACCESS_READINGS = ['unknown', 'public', 'key'] as const;
export type IndexAccessReading = (typeof INDEX_ACCESS_READINGS)[number];

/**
 * READING (spec §2: a slug's format is not shown): `any` is whatever `validateTenantSlug` takes.
 */
export const SLUG_STYLES = ['kebab', 'snake', 'any'] as const;
export type SlugStyle = (typeof SLUG_STYLES)[number];
/** What each named slug style accepts (`any` accepts what the contract's own slug check does). */
export const SLUG_PATTERNS: Readonly<Record<Exclude<SlugStyle, 'any'>, RegExp>> = {
  kebab: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
  snake: /^[a-z0-9]+(?:_[a-z0-9]+)*$/,
};

/** READING (spec §7: "the HTTP status that accompanies unauthorized: not shown"). */
export const UNAUTHORIZED_STATUSES = [401, 403] as const;
export type UnauthorizedStatus = (typeof UNAUTHORIZED_STATUSES)[number];

/**
 * READING (spec §5.4: a key outside its scope "must not succeed"; how it is refused is not shown).
 */
export const SCOPE_REFUSALS = ['insufficient_scope', 'forbidden', 'not_found'] as const;
export type ScopeRefusal = (typeof SCOPE_REFUSALS)[number];

/**
 * READING (spec §4.2: /platform/ is "reserved for platform keys"; what a tenant key gets is not
 * shown).
 */
export const PLATFORM_REFUSALS = ['platform_key_required', 'not_found', 'unauthorized'] as const;
export type PlatformRefusal = (typeof PLATFORM_REFUSALS)[number];

/** READING (spec §8: "rate-limit headers: not shown"); every style is read by `parseRetryHint`. */
export const RATE_LIMIT_HEADER_STYLES = [
  'ietf',
  'ratelimit-field',
  'x-ratelimit-epoch',
  'x-ratelimit-delta',
  'retry-after-date',
  'none',
] as const;
export type RateLimitHeaderStyle = (typeof RATE_LIMIT_HEADER_STYLES)[number];

/**
 * How each open point is spelled where a user names it: `--dialect KEY=VALUE` (sandbox and
 * `repairmon openapi`), the OpenAPI document's `x-readings`, and what `discover` reports. The
 * fields are those of a server's readings (`server/readings.ts`). The bodies of errors are
 * not among them: spec §1 says every response is JSON in the envelope.
 */
export const READING_KEYS = {
  slug: 'slug',
  index: 'index',
  unauthorizedStatus: 'unauthorized-status',
  missingKey: 'missing-key',
  scopeRefusal: 'scope-refusal',
  platformPaths: 'platform-paths',
  platformRefusal: 'platform-refusal',
  rateLimitHeaders: 'rate-limit-headers',
} as const;
export type ReadingField = keyof typeof READING_KEYS;
export type ReadingKey = (typeof READING_KEYS)[ReadingField];

export interface Setting<T> {
  readonly default: T;
  /** Why this default, in one sentence a user reads in `--help` and check-config. */
  readonly reason: string;
}

export const INDEX_ACCESS: Setting<IndexAccessReading> = {
  default: 'unknown',
  reason:
    'the spec does not say whether GET / needs a key; a read of / sends one, which works ' +
    'either way, and nothing asserts one reading until it is configured or discovered',
};

/** READING (spec §4: "the concrete sub-paths under /platform/ ... not shown"). */
export const PLATFORM_PATHS: Setting<readonly string[]> = {
  default: [],
  reason:
    'the spec names no /platform/ sub-path; probing a guessed one would fail on a healthy API, ' +
    'so none is probed until configured or discovered',
};

/**
 * A `/platform/` sub-path as a user gives it (`tenants`, `/platform/tenants`, `admin/tenants`):
 * the part below /platform/, or a reason it cannot be one.
 */
export function platformSubPath(
  value: string,
): { readonly ok: true; readonly sub: string } | { readonly ok: false; readonly reason: string } {
  const sub = value
    .trim()
    .replace(/^\/+/, '')
    .replace(/^platform\//, '')
    .replace(/\/+$/, '');
  if (sub === '')
    return { ok: false, reason: 'is empty (give the part below /platform/, e.g. tenants)' };
  if (/[?#]/.test(sub)) return { ok: false, reason: 'cannot carry a query or fragment' };
  // `%2e` is a dot to a server that decodes before it resolves the path.
  if (sub.split('/').some((part) => /^(?:\.|%2e){1,2}$/i.test(part)))
    return { ok: false, reason: 'cannot contain "." or ".." segments' };
  if (/[\u0000-\u001f\u007f]/.test(sub))
    return { ok: false, reason: 'cannot contain control characters' };
  return { ok: true, sub };
}

/**
 * The /platform/ sub-paths a `/docs` catalog names, wherever in its JSON they stand (its
 * shape is not shown): every concrete path below /platform/, with or without the base path in
 * front, as a whole string or inside a sentence ("Platform keys may call /platform/shops.").
 * A template such as `/platform/*` or `/platform/{sub}` names none.
 */
export function platformPathsInDocs(docs: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 8) return;
    if (typeof value === 'string') {
      // A path ends at whitespace, quotes or closing punctuation; one followed by `*` or `{` is a
      // template.
      for (const match of value.matchAll(
        /(?:^|[\s("'`])(?:\/api\/v\d+)?\/platform\/([\w.~%/-]+)(?=$|[\s)"'`,;:!?])/g,
      )) {
        const check = platformSubPath((match[1] ?? '').replace(/[.]+$/, ''));
        if (check.ok) found.add(check.sub);
      }
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) visit(item, depth + 1);
    }
  };
  visit(docs, 0);
  return [...found];
}

/**
 * Fields a listed tenant object may carry its slug in, most specific first (a display `name` is not
 * a slug).
 */
const SLUG_FIELDS = ['slug', 'tenant', 'id'] as const;

function slugOf(item: unknown): string | undefined {
  if (typeof item === 'string') return isTenantSlug(item) ? item : undefined;
  if (typeof item !== 'object' || item === null) return undefined;
  for (const field of SLUG_FIELDS) {
    const value = (item as Record<string, unknown>)[field];
    if (typeof value === 'string' && isTenantSlug(value)) return value;
  }
  return undefined;
}

/**
 * The tenant slugs a tenant listing names (READING: the shape of /platform/ answers is not
 * shown): a list of slugs, or of objects carrying one, or an object holding such a list.
 * Anything else names none.
 */
export function tenantSlugsInListing(data: unknown): string[] {
  const list = Array.isArray(data)
    ? data
    : typeof data === 'object' && data !== null
      ? Object.values(data).find(Array.isArray)
      : undefined;
  if (!Array.isArray(list)) return [];
  return [...new Set(list.map(slugOf).filter((s): s is string => s !== undefined))];
}
