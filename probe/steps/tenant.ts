/**
 * Steps 3 and 4: the tenant in the URL against the key's, then one row per resource. Both read
 * the same four resource calls; the tenant row needs no call of its own.
 */
import { TENANT_RESOURCES, type TenantResource } from '../../templates/app/src/contract/index.js';
import { type CallRecord, findingOf } from '../observe.js';
import type { CheckRow } from '../types.js';
import { type KeyKindGuess, type StepContext, makeRow, notRunRow, recordOf } from './context.js';

function resourceRecords(ctx: StepContext): CallRecord[] {
  return TENANT_RESOURCES.map((r) => recordOf(ctx, `scope:${r}`)).filter((r): r is CallRecord => r !== undefined);
}

function tenantPassNote(ctx: StepContext, keyKind: KeyKindGuess, tenant: string): string {
  if (keyKind === 'platform') {
    const how = ctx.tenantSource === 'inferred' ? ` (checked with ${tenant}, the first tenant /platform/ lists)` : ` (checked with ${tenant})`;
    return `a platform key may read every tenant${how}`;
  }
  return `the key is accepted for tenant ${tenant}`;
}

export function tenantStep(ctx: StepContext, keyKind: KeyKindGuess): CheckRow[] {
  const tenant = ctx.probedTenant;
  const title = tenant === undefined ? 'tenant in URL matches the key' : `tenant ${tenant} matches the key`;
  if (tenant === undefined) {
    if (keyKind === 'platform') return [notRunRow('tenant', 'tenant', title, 'a platform key may read every tenant, and /platform/ listed none; pass --tenant SLUG')];
    return [makeRow('tenant', 'tenant', title, 'skip', { kind: 'tenant_unknown' })];
  }
  const records = resourceRecords(ctx);
  const mismatch = records.find((r) => r.result?.kind === 'response' && r.result.classification.kind === 'tenant_mismatch');
  if (mismatch) return [makeRow('tenant', 'tenant', title, 'fail', findingOf(mismatch.result!, ctx.findingContext), mismatch)];
  const reached = records.find((r) => r.result?.kind === 'response' && ['ok', 'insufficient_scope'].includes(r.result.classification.kind));
  if (reached) return [makeRow('tenant', 'tenant', title, 'pass', { kind: 'ok', note: tenantPassNote(ctx, keyKind, tenant) }, reached)];
  const first = records.find((r) => r.result !== undefined);
  if (!first?.result) return [notRunRow('tenant', 'tenant', title, 'the host did not answer', records[0])];
  return [makeRow('tenant', 'tenant', title, 'fail', findingOf(first.result, ctx.findingContext), first)];
}

function scopeRow(ctx: StepContext, resource: TenantResource, readable: readonly TenantResource[]): CheckRow {
  const check = `scope:${resource}`;
  const title = `may read ${resource}`;
  const record = recordOf(ctx, check);
  if (ctx.probedTenant === undefined) return notRunRow('scope', check, title, 'no tenant to read; pass --tenant SLUG');
  if (!record?.result) return notRunRow('scope', check, title, 'the host did not answer', record);
  const found = findingOf(record.result, ctx.findingContext, resource);
  const finding = found.kind === 'scope_missing' ? { ...found, readable } : found;
  if (finding.kind === 'ok') return makeRow('scope', check, title, 'pass', { kind: 'ok', note: `the key may read ${resource}` }, record);
  return makeRow('scope', check, title, 'fail', finding, record);
}

export function scopeStep(ctx: StepContext): CheckRow[] {
  const readable = TENANT_RESOURCES.filter((r) => {
    const result = recordOf(ctx, `scope:${r}`)?.result;
    return result?.kind === 'response' && result.classification.kind === 'ok';
  });
  return TENANT_RESOURCES.map((resource) => scopeRow(ctx, resource, readable));
}
