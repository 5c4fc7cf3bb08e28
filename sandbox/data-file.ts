/**
 * `--data FILE`: JSON or YAML replacing the demo data (tenants with their records, and key
 * metadata without values). Parsed strictly in one pass; the first error names its path,
 * e.g. `keys[2].tenant`, and nothing starts.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ENVIRONMENTS, KEY_KINDS, TENANT_RESOURCES, validateTenantSlug } from '../api/contract/index.js';
import { SandboxConfigError } from './errors.js';
import type { SandboxData } from './model.js';

const SCOPES = [...TENANT_RESOURCES, 'platform'] as const;
const recordList = z.array(z.record(z.string(), z.unknown())).default([]);

const slug = z.string().superRefine((value, ctx) => {
  const check = validateTenantSlug(value);
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
  alias: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, 'alias must be letters, digits, ".", "_" or "-"'),
  kind: z.enum(KEY_KINDS),
  tenant: slug.optional(),
  environment: z.enum(ENVIRONMENTS),
  scopes: z.array(z.enum(SCOPES)),
  revoked: z.boolean().default(false),
});

const dataSchema = z
  .strictObject({ tenants: z.array(tenantSchema).min(1), keys: z.array(keySchema).min(1) })
  .superRefine((data, ctx) => {
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
        ctx.addIssue({ code: 'custom', path: ['keys', i, 'tenant'], message: `a tenant key needs "tenant" naming one of: ${[...slugs].join(', ')}` });
      }
      if (k.kind === 'platform' && k.tenant !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['keys', i, 'tenant'], message: 'a platform key has no tenant' });
      }
    });
  });

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : `${out}${out ? '.' : ''}${String(part)}`), '');
}

function decode(text: string, file: string): unknown {
  try {
    return /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new SandboxConfigError('data', `${file}: cannot parse (${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''})`);
  }
}

/** Validates decoded data; throws SandboxConfigError naming the first bad path. */
export function parseSandboxData(value: unknown, file = 'data'): SandboxData {
  const result = dataSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? formatPath(issue.path) || '(root)' : '(root)';
    throw new SandboxConfigError('data', `${file}: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return {
    tenants: result.data.tenants.map(({ slug: s, name, city, ...records }) => ({ info: { slug: s, name, city }, records })),
    keys: result.data.keys.map(({ tenant, ...rest }) => ({ ...rest, ...(tenant === undefined ? {} : { tenant }) })),
  };
}

export async function loadDataFile(file: string): Promise<SandboxData> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SandboxConfigError('data', `${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parseSandboxData(decode(text, file), file);
}
