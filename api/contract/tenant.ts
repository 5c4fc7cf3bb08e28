/**
 * Tenant slugs, the `{tenant}` path parameter. READING (spec §2: a slug's format is not shown): any
 * slug a real API may use is taken (`rowery_nowak`, `RoweryNowak`, `sklep.pl`); refused is only what
 * cannot be one path segment or is absurdly long. Whether the server knows the tenant is its answer.
 */
export const TENANT_SLUG_MAX_LENGTH = 256;

export type SlugCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function encodable(value: string): boolean {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

export function validateTenantSlug(value: string): SlugCheck {
  if (value.length === 0) return { ok: false, reason: 'is empty' };
  if (value.length > TENANT_SLUG_MAX_LENGTH) return { ok: false, reason: `is longer than ${TENANT_SLUG_MAX_LENGTH} characters` };
  if (value === '.' || value === '..') return { ok: false, reason: 'cannot be "." or "..": a URL would resolve it away' };
  if (value.includes('/')) return { ok: false, reason: 'cannot contain "/": it must be one path segment' };
  if (CONTROL.test(value)) return { ok: false, reason: 'cannot contain control characters' };
  if (!encodable(value)) return { ok: false, reason: 'is not valid text (a lone surrogate cannot be percent-encoded)' };
  return { ok: true };
}

export function isTenantSlug(value: string): boolean {
  return validateTenantSlug(value).ok;
}
