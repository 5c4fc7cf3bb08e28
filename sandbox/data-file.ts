/**
 * `--data FILE`: JSON or YAML replacing the demo data (tenants with their records, and key
 * metadata without values). Read with the config kit the monitor's config uses: strict, and
 * every problem at once, each naming its path such as `keys[2].tenant`; nothing starts. Slugs
 * must be in the dialect's style, as the sandbox would refuse them in a path otherwise.
 */
import { z } from 'zod';
import { aliasSchema, parseWith } from '../lib/index.js';
import { ENVIRONMENTS, KEY_KINDS, TENANT_RESOURCES } from '../api/contract/index.js';
import type { SlugStyle } from '../api/contract/readings.js';
import { checkSlugStyle } from './dialect/index.js';
import { checkedOrThrow, decodeFile } from './errors.js';
import type { SandboxData } from './model.js';

const SCOPES = [...TENANT_RESOURCES, 'platform'] as const;
const recordList = z.array(z.record(z.string(), z.unknown())).default([]);
/** One list per tenant resource of the contract, each optional (empty when left out). */
const recordLists = Object.fromEntries(TENANT_RESOURCES.map((r) => [r, recordList])) as Record<
  (typeof TENANT_RESOURCES)[number],
  typeof recordList
>;

/** The schema for one slug style: a slug outside the dialect's style is refused where it stands. */
function dataSchema(style: SlugStyle) {
  const slug = z.string().superRefine((value, ctx) => {
    const check = checkSlugStyle(value, style);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: `tenant slug "${value}" ${check.reason}` });
  });
  const tenantSchema = z.strictObject({
    slug,
    name: z.string().min(1),
    city: z.string().min(1).default(''),
    ...recordLists,
  });
  const keySchema = z.strictObject({
    alias: aliasSchema,
    kind: z.enum(KEY_KINDS),
    tenant: slug.optional(),
    environment: z.enum(ENVIRONMENTS),
    scopes: z.array(z.enum(SCOPES)),
    revoked: z.boolean().default(false),
  });
  // Unique slugs and aliases, and keys assigned as their kind demands.
  return z.strictObject({ tenants: z.array(tenantSchema).min(1), keys: z.array(keySchema).min(1) }).superRefine((data, ctx) => {
    const issue = (path: (string | number)[], message: string): void => ctx.addIssue({ code: 'custom', path, message });
    const slugs = new Set<string>();
    data.tenants.forEach((t, i) => {
      if (slugs.has(t.slug)) issue(['tenants', i, 'slug'], `duplicate tenant slug "${t.slug}"`);
      slugs.add(t.slug);
    });
    const aliases = new Set<string>();
    data.keys.forEach((k, i) => {
      if (aliases.has(k.alias)) issue(['keys', i, 'alias'], `duplicate key alias "${k.alias}"`);
      aliases.add(k.alias);
      if (k.kind === 'tenant' && (k.tenant === undefined || !slugs.has(k.tenant)))
        issue(['keys', i, 'tenant'], `a tenant key needs "tenant" naming one of: ${[...slugs].join(', ')}`);
      if (k.kind === 'platform' && k.tenant !== undefined) issue(['keys', i, 'tenant'], 'a platform key has no tenant');
    });
  });
}

/** Reads and validates the file for a slug style; throws SandboxConfigError listing every bad path. */
export async function loadDataFile(file: string, style: SlugStyle = 'kebab'): Promise<SandboxData> {
  const value = checkedOrThrow('data', file, parseWith(dataSchema(style), decodeFile(file, 'data', 'data file')));
  return {
    tenants: value.tenants.map(({ slug, name, city, ...records }) => ({ info: { slug, name, city }, records })),
    keys: value.keys.map(({ tenant, ...rest }) => ({ ...rest, ...(tenant === undefined ? {} : { tenant }) })),
  };
}
