/**
 * What needs no key to learn: whether GET / needs one, how a made-up key and a missing key
 * are refused, and what body a 401 comes with.
 */
import type { ErrorBodies, IndexAccessReading } from '../../api/contract/readings.js';
import { isResponse } from '../../diagnose/index.js';
import { answerText, evidenceOf, isSuccess, refusalOf, sameRefusal } from '../answer.js';
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

/**
 * Spec §7: the bodies of a 401 and a 429 are not shown (ERROR_BODIES). `plain` when any 401
 * came without the envelope (with no 401, any 429): what a client must then cope with. An API
 * that refuses a bad key with 403 sends no 401 at all; then only a 429 can tell.
 */
export function errorBodiesFinding(ctx: FindingContext): Reading<ErrorBodies> {
  const all = [...ctx.observations.values()];
  for (const status of [401, 429]) {
    const seen = all.filter((r) => isResponse(r.result) && r.result.status === status);
    if (seen.length === 0) continue;
    const others = seen.length > 1 ? ` (${seen.length} ${status}s seen)` : '';
    const plain = seen.find((r) => isResponse(r.result) && !r.result.envelope.valid);
    if (plain) return learned('plain', `${evidenceOf(plain)}${others}`);
    return learned('envelope', `${evidenceOf(seen[0]!)}: the error envelope${others}`);
  }
  const madeUp = ctx.observations.get('invalid-key');
  if (madeUp && refusalOf(madeUp.result)?.status === 403) {
    return unknown(
      `no 401 or 429 seen: this API refuses a made-up key with 403 (${evidenceOf(madeUp)}), so a 401's body never shows; only a 429's body would tell, and discovery provokes none`,
    );
  }
  const refusals = all.filter((r) => refusalOf(r.result) !== undefined).map((r) => answerText(r.result));
  return unknown(`no 401 seen${refusals.length > 0 ? ` (refusals: ${[...new Set(refusals)].join(', ')})` : ''}`);
}
