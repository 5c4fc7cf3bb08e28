/**
 * Where a tenant can come from when support did not name one. The API cannot say which tenant
 * a key belongs to, but a /docs catalog may name some in its examples (a platform listing's are
 * read by `tenantsListed`). Its shape is not shown by the spec, so it is read leniently and
 * gives up quietly on anything else.
 */
import type { AttemptResult } from '../api/client/single-attempt.js';
import { isTenantSlug, tenantSlugsInListing } from '../api/contract/index.js';
import { okData } from './observations.js';

/**
 * `/tenants/<slug>/...` with a concrete slug (not a `{tenant}` template), with or without the
 * origin and base path, or written as a request (`GET /api/v1/tenants/a/bikes`).
 */
const TENANT_PATH = /^(?:GET\s+)?(?:https?:\/\/[^/]+)?(?:\/api\/v\d+)?\/tenants\/([^/\s?#*{}<>:]+)(?:\/|$)/;

function decoded(segment: string): string | undefined {
  try {
    const slug = decodeURIComponent(segment);
    return isTenantSlug(slug) ? slug : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tenants a /docs catalog names, in order of appearance: example paths such as
 * `/api/v1/tenants/rowery-nowak/bikes`, and the items of any `tenants` list.
 */
export function tenantsInDocs(docs: AttemptResult | undefined): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, depth: number, key: string | undefined): void => {
    if (depth > 8) return;
    if (typeof value === 'string') {
      const match = TENANT_PATH.exec(value.trim());
      const slug = match?.[1] === undefined ? undefined : decoded(match[1]);
      if (slug !== undefined) found.add(slug);
    } else if (Array.isArray(value)) {
      const named = key === 'tenants' ? tenantSlugsInListing(value) : [];
      for (const slug of named) found.add(slug);
      if (named.length === 0) for (const item of value) visit(item, depth + 1, undefined);
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, item] of Object.entries(value)) visit(item, depth + 1, k);
    }
  };
  visit(okData(docs)?.data, 0, undefined);
  return [...found];
}
