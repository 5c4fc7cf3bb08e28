/**
 * What every finding reads: the recorded answers and what the user gave. Also the two
 * judgements several findings share: whether an answer is what a made-up key gets, and which
 * answer proves the user's key is valid.
 */
import type { AttemptResult } from '../../api/client/single-attempt.js';
import { type CallRecord, type Observations } from '../../diagnose/index.js';
import { isResponse } from '../../diagnose/index.js';
import { PLACEHOLDER_TENANT, presentsKey } from '../plan.js';
import { isSuccess, refusalOf, sameRefusal } from '../answer.js';
import type { Reading, Refusal } from '../types.js';

export interface FindingContext {
  readonly observations: Observations;
  readonly keyGiven: boolean;
  /** --tenant */
  readonly tenant: string | undefined;
  /** The /platform/ sub-paths /docs lists. */
  readonly platformPathsListed: readonly string[];
  /** --platform-path, when given (then these were asked, not the listed ones). */
  readonly platformPathsGiven: readonly string[] | undefined;
}

export const NEEDS_KEY = 'needs a key (--key-env VAR, --key-file PATH or --key-stdin)';
export const NEEDS_TENANT = 'needs --tenant SLUG';

export function unknown<T>(why: string): Reading<T> {
  return { kind: 'unknown', why };
}

export function learned<T>(reading: T, evidence: string): Reading<T> {
  return { kind: 'learned', reading, evidence };
}

export function recordsWhere(ctx: FindingContext, prefix: string): CallRecord[] {
  return [...ctx.observations.values()].filter((r) => r.call.id.startsWith(prefix));
}

/** Whether the made-up-key and no-key calls read our placeholder tenant rather than a real one. */
export function refusalTenantIsMadeUp(ctx: FindingContext): boolean {
  return ctx.observations.get('invalid-key')?.call.path.includes(`/tenants/${PLACEHOLDER_TENANT}/`) ?? false;
}

/** How the API refused a made-up key, when it did. */
export function madeUpKeyRefusal(ctx: FindingContext): Refusal | undefined {
  return refusalOf(ctx.observations.get('invalid-key')?.result);
}

/** An answer a rejected key would get: `unauthorized`, or exactly what the made-up key got. */
export function looksRejected(ctx: FindingContext, result: AttemptResult | undefined): boolean {
  if (isResponse(result) && result.classification.kind === 'unauthorized') return true;
  return sameRefusal(refusalOf(result), madeUpKeyRefusal(ctx));
}

/**
 * The first answer only a valid key gets: data from a path that needs a key (GET / only when it
 * refused us without one), or a tenant-mismatch or scope refusal, which name a known key.
 */
export function keyProof(ctx: FindingContext): CallRecord | undefined {
  const indexNeedsKey = refusalOf(ctx.observations.get('index')?.result) !== undefined;
  for (const record of ctx.observations.values()) {
    if (!presentsKey(record.call)) continue;
    const result = record.result;
    if (isSuccess(result) && (record.call.id !== 'index:key' || indexNeedsKey)) return record;
    if (isResponse(result) && (result.classification.kind === 'tenant_mismatch' || result.classification.kind === 'insufficient_scope'))
      return record;
  }
  return undefined;
}
