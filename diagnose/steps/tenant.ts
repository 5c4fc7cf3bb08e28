/**
 * Steps 3 and 4: the tenant in the URL against the key's, then one row per resource; the
 * checklist core decides, the probe words it (how the tenant was chosen, what the key could read).
 */
import { TENANT_RESOURCES } from '../../api/contract/index.js';
import type { DiagnosisRow } from '../types.js';
import { type KeyKindGuess, type StepContext, checklistRow, makeRow, notRunBecause, notRunRow } from './context.js';

/** Tenants /docs named that the key was refused on as another tenant's, before the probed one. */
function missedGuesses(ctx: StepContext): string[] {
  return ctx.guesses.filter((slug) => slug !== ctx.probedTenant);
}

function tenantPassNote(ctx: StepContext, keyKind: KeyKindGuess, tenant: string): string {
  if (keyKind === 'platform') {
    const how =
      ctx.tenantSource === 'platform' ? ` (checked with ${tenant}, the first tenant /platform/ lists)` : ` (checked with ${tenant})`;
    return `a platform key may read every tenant${how}`;
  }
  if (ctx.tenantSource !== 'docs') return `the key is accepted for tenant ${tenant}`;
  const missed = missedGuesses(ctx);
  const before = missed.length > 0 ? `; not ${missed.join(', ')}: tenant_key_tenant_mismatch` : '';
  return `the key is accepted for tenant ${tenant}, a tenant /docs names (the API cannot say which tenant a key has${before})`;
}

export function tenantStep(ctx: StepContext, keyKind: KeyKindGuess): DiagnosisRow[] {
  const tenant = ctx.probedTenant;
  const title = tenant === undefined ? 'tenant in URL matches the key' : `tenant ${tenant} matches the key`;
  if (tenant === undefined && ctx.traffic.stopped !== undefined) return [notRunRow('tenant', 'tenant', title, notRunBecause(ctx, ''))];
  if (tenant === undefined)
    return [makeRow('tenant', 'tenant', title, 'skip', { kind: 'tenant_unknown', keyKind, tried: missedGuesses(ctx) })];
  return [checklistRow(ctx, 'tenant', 'tenant', title, tenantPassNote(ctx, keyKind, tenant))];
}

export function scopeStep(ctx: StepContext): DiagnosisRow[] {
  return TENANT_RESOURCES.map((resource) => {
    const row = checklistRow(ctx, `scope:${resource}`, 'scope', `may read ${resource}`, `the key may read ${resource}`);
    if (ctx.probedTenant === undefined)
      return { ...row, explanation: `not run: ${notRunBecause(ctx, 'no tenant to read; pass --tenant SLUG')}` };
    return row;
  });
}
