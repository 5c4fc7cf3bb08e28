/**
 * Tenant slug styles. The contract takes any slug that fits in one path segment (the format is
 * "not shown"); a real API holds its own to one style, and so does the sandbox, per dialect.
 */
import { type SlugCheck, validateTenantSlug } from '../../api/contract/index.js';
import { type SlugStyle } from '../../api/contract/readings.js';

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SNAKE = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
/** A kebab slug is a DNS label, so it can become a host name. */
export const KEBAB_SLUG_MAX_LENGTH = 63;

const STYLE_RULE: Readonly<Record<Exclude<SlugStyle, 'any'>, { readonly pattern: RegExp; readonly reason: string }>> = {
  kebab: { pattern: KEBAB, reason: 'must be lowercase letters, digits and single hyphens (e.g. "rowery-nowak")' },
  snake: { pattern: SNAKE, reason: 'must be lowercase letters, digits and single underscores (e.g. "rowery_nowak")' },
};

/** Whether `slug` is a tenant slug in `style`: the contract's check first, then the style's. */
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
