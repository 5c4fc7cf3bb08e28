/**
 * The key on the four resources of --tenant: which it reads, and how a resource outside its
 * scope is refused (spec §5.4: "must not succeed"; the status and code are not shown).
 */
import { TENANT_RESOURCES, type TenantResource } from '../../api/contract/index.js';
import { type CallRecord } from '../../diagnose/index.js';
import { isResponse } from '../../diagnose/index.js';
import { answerText, evidenceOf, isSuccess, refusalOf, sameRefusal } from '../answer.js';
import type { Reading, Refusal } from '../types.js';
import { type FindingContext, NEEDS_KEY, NEEDS_TENANT, learned, looksRejected, recordsWhere, unknown } from './context.js';

function resourceOf(record: CallRecord): TenantResource {
  return record.call.endpoint as TenantResource;
}

/** `GET /tenants/x/<resource> with the key: clients HTTP 200, logs HTTP 403 insufficient_scope`. */
function summary(ctx: FindingContext, records: readonly CallRecord[]): string {
  const answers = records.map((r) => `${resourceOf(r)} ${answerText(r.result)}`).join(', ');
  return `GET /tenants/${encodeURIComponent(ctx.tenant ?? '')}/<resource> with the key: ${answers}`;
}

type ResourceRead =
  { readonly kind: 'read'; readonly records: readonly CallRecord[] } | { readonly kind: 'not_read'; readonly why: string };

function resourceRecords(ctx: FindingContext): ResourceRead {
  const needs = [...(ctx.keyGiven ? [] : [NEEDS_KEY]), ...(ctx.tenant === undefined ? [NEEDS_TENANT] : [])];
  if (needs.length > 0) return { kind: 'not_read', why: needs.join('; ') };
  const records = recordsWhere(ctx, 'resource:');
  if (records.length < TENANT_RESOURCES.length) return { kind: 'not_read', why: 'the resources were not all asked' };
  if (records.every((r) => looksRejected(ctx, r.result)))
    return { kind: 'not_read', why: `${summary(ctx, records)}: every answer is what a rejected key gets` };
  if (!records.some((r) => isSuccess(r.result) || refusalOf(r.result) !== undefined))
    return { kind: 'not_read', why: `${summary(ctx, records)}: neither data nor a refusal` };
  return { kind: 'read', records };
}

export function readableResourcesFinding(ctx: FindingContext): Reading<readonly TenantResource[]> {
  const read = resourceRecords(ctx);
  if (read.kind === 'not_read') return unknown(read.why);
  return learned(read.records.filter((r) => isSuccess(r.result)).map(resourceOf), summary(ctx, read.records));
}

/**
 * A refusal that is neither a tenant mismatch nor a rejected key is the scope's. When no
 * resource was readable and all four were refused alike, the refusal is about the tenant or
 * the key as a whole, not one resource's scope.
 */
export function scopeRefusalFinding(ctx: FindingContext): Reading<Refusal> {
  const read = resourceRecords(ctx);
  if (read.kind === 'not_read') return unknown(read.why);
  const { records } = read;
  const scoped = records.flatMap((record) => {
    const refusal = refusalOf(record.result);
    const mismatch = isResponse(record.result) && record.result.classification.kind === 'tenant_mismatch';
    return refusal !== undefined && !mismatch && !looksRejected(ctx, record.result) ? [{ record, refusal }] : [];
  });
  const first = scoped[0];
  if (!first) return unknown(`not observed: ${summary(ctx, records)}`);
  const { record, refusal } = first;
  const uniform = !records.some((r) => isSuccess(r.result)) && records.every((r) => sameRefusal(refusalOf(r.result), refusal));
  if (uniform)
    return unknown(`not observed: ${summary(ctx, records)}; one refusal for every resource is about the tenant or the key, not a scope`);
  return learned(refusal, evidenceOf(record));
}
