/**
 * What needs no key to learn: whether GET / needs one, and how a made-up key and a missing
 * key are refused.
 */
import type { IndexAccessReading } from '../../api/contract/readings.js';
import { isResponse } from '../../diagnose/index.js';
import { evidenceOf, isSuccess, refusalOf, sameRefusal } from '../answer.js';
import type { Reading, Refusal } from '../types.js';
import { type FindingContext, learned, refusalTenantIsMadeUp, unknown } from './context.js';

/** Spec §5: whether the index needs a key is not shown. 2xx public, 401/403 key, else unknown. */
export function indexAccessFinding(ctx: FindingContext): Reading<Exclude<IndexAccessReading, 'unknown'>> {
  const record = ctx.observations.get('index');
  if (!record) return unknown('GET / was not asked');
  const evidence = evidenceOf(record);
  if (isSuccess(record.result)) return learned('public', evidence);
  if (isResponse(record.result) && (record.result.status === 401 || record.result.status === 403)) return learned('key', evidence);
  return unknown(`${evidence}: neither 2xx (public) nor a refusal (401/403, a key is needed)`);
}

function refusalFinding(ctx: FindingContext, id: 'invalid-key' | 'missing-key', servedWhat: string): Reading<Refusal> {
  const record = ctx.observations.get(id);
  if (!record) return unknown(`the tenant path was not asked ${id === 'invalid-key' ? 'with a made-up key' : 'without a key'}`);
  const evidence = evidenceOf(record);
  if (isSuccess(record.result))
    return unknown(`${evidence}: ${servedWhat} was served data (an authorization breach, or the path is public)`);
  const refusal = refusalOf(record.result);
  if (!refusal) return unknown(`${evidence}: not a refusal`);
  // A tenant may be looked up before the key: a 400 or 404 may then be about the slug.
  if (refusal.status !== 401 && refusal.status !== 403) {
    if (refusalTenantIsMadeUp(ctx))
      return unknown(`${evidence}: the tenant was made up, so this may answer the slug rather than the key; pass --tenant SLUG`);
    const keyed = ctx.observations.get('resource:clients');
    if (keyed && sameRefusal(refusalOf(keyed.result), refusal))
      return unknown(`${evidence}, as the key given got (${evidenceOf(keyed)}): the answer is about the tenant, not the key`);
  }
  return learned(refusal, evidence);
}

export function invalidKeyFinding(ctx: FindingContext): Reading<Refusal> {
  return refusalFinding(ctx, 'invalid-key', 'a made-up key');
}

export function missingKeyFinding(ctx: FindingContext): Reading<Refusal> {
  return refusalFinding(ctx, 'missing-key', 'a request without a key');
}
