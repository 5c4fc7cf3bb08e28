/**
 * `--data FILE`: JSON or YAML replacing the demo data (tenants with their records, and key
 * metadata without values). Read with the config kit the monitor's config uses: strict, and
 * every problem at once, each naming its path such as `keys[2].tenant`; nothing starts. Slugs
 * must be in the dialect's style, as the sandbox would refuse them in a path otherwise.
 */
import { z } from 'zod';
import { type ConfigIssue, aliasSchema, decodeDocument, formatIssues, parseWith, readDocument } from '../lib/index.js';
import { ENVIRONMENTS, KEY_KINDS, TENANT_RESOURCES } from '../api/contract/index.js';
import type { SlugStyle } from '../api/contract/readings.js';
import { checkSlugStyle } from './dialect/index.js';
import { SandboxConfigError } from './errors.js';
import type { SandboxData } from './model.js';

const SCOPES = [...TENANT_RESOURCES, 'platform'] as const;
const recordList = z.array(z.record(z.string(), z.unknown())).default([]);

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
    clients: recordList,
    bikes: recordList,
    repairs: recordList,
    logs: recordList,
  });
  const keySchema = z.strictObject({
    alias: aliasSchema,
    kind: z.enum(KEY_KINDS),
    tenant: slug.optional(),
    environment: z.enum(ENVIRONMENTS),
    scopes: z.array(z.enum(SCOPES)),
    revoked: z.boolean().default(false),
  });
  return z.strictObject({ tenants: z.array(tenantSchema).min(1), keys: z.array(keySchema).min(1) }).superRefine(crossCheck);
}

type DataShape = { tenants: { slug: string }[]; keys: { alias: string; kind: string; tenant?: string | undefined }[] };

/** Unique slugs and aliases, and keys assigned as their kind demands. */
function crossCheck(data: DataShape, ctx: z.RefinementCtx): void {
  const slugs = new Set<string>();
  data.tenants.forEach((t, i) => {
    if (slugs.has(t.slug)) ctx.addIssue({ code: 'custom', path: ['tenants', i, 'slug'], message: `duplicate tenant slug "${t.slug}"` });
    slugs.add(t.slug);
  });
  const aliases = new Set<string>();
  data.keys.forEach((k, i) => {
    if (aliases.has(k.alias)) ctx.addIssue({ code: 'custom', path: ['keys', i, 'alias'], message: `duplicate key alias "${k.alias}"` });
    aliases.add(k.alias);
    if (k.kind === 'tenant' && (k.tenant === undefined || !slugs.has(k.tenant))) {
      ctx.addIssue({
        code: 'custom',
        path: ['keys', i, 'tenant'],
        message: `a tenant key needs "tenant" naming one of: ${[...slugs].join(', ')}`,
      });
    }
    if (k.kind === 'platform' && k.tenant !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['keys', i, 'tenant'], message: 'a platform key has no tenant' });
    }
  });
}

function refuse(file: string, issues: readonly ConfigIssue[]): SandboxConfigError {
  const only = issues.length === 1 && issues[0]?.path === '' ? issues[0] : undefined;
  return new SandboxConfigError(
    'data',
    only ? `${file}: ${only.message}` : `${file}: ${issues.length} problem(s):\n${formatIssues(issues)}`,
  );
}

/** Validates decoded data for a slug style; throws SandboxConfigError listing every bad path. */
export function parseSandboxData(value: unknown, file = 'data', style: SlugStyle = 'kebab'): SandboxData {
  const result = parseWith(dataSchema(style), value);
  if (!result.ok) throw refuse(file, result.issues);
  return {
    tenants: result.value.tenants.map(({ slug: s, name, city, ...records }) => ({ info: { slug: s, name, city }, records })),
    keys: result.value.keys.map(({ tenant, ...rest }) => ({ ...rest, ...(tenant === undefined ? {} : { tenant }) })),
  };
}

export async function loadDataFile(file: string, style: SlugStyle = 'kebab'): Promise<SandboxData> {
  const read = readDocument(file, 'data file');
  if (!read.ok) throw refuse(file, read.issues);
  const decoded = decodeDocument(read.value.text, file);
  if (!decoded.ok) throw refuse(file, decoded.issues);
  return parseSandboxData(decoded.value, file, style);
}
