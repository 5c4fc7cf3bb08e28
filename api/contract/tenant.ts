/** Tenant slugs: the `{tenant}` path parameter (spec §2). */

/**
 * ASSUMPTION (spec: a tenant is "a string (slug)", format not shown). We accept lowercase
 * ASCII letters, digits and single hyphens between them, 1 to 63 characters, as a DNS label
 * does; this is what the sandbox enforces and what the generator accepts.
 */
export const TENANT_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const TENANT_SLUG_MAX_LENGTH = 63;

export type SlugCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export function validateTenantSlug(value: string): SlugCheck {
  if (value.length === 0) return { ok: false, reason: 'is empty' };
  if (value.length > TENANT_SLUG_MAX_LENGTH) return { ok: false, reason: `is longer than ${TENANT_SLUG_MAX_LENGTH} characters` };
  if (!TENANT_SLUG_PATTERN.test(value)) {
    return { ok: false, reason: 'must be lowercase letters, digits and single hyphens (e.g. "rowery-nowak")' };
  }
  return { ok: true };
}

export function isTenantSlug(value: string): boolean {
  return validateTenantSlug(value).ok;
}
