/**
 * The probe's run as a generator: it yields what to do next (send a call, or wait as the
 * server asked) and is handed each answer with the time it arrived. No I/O: run.ts carries
 * the steps out on the network, the tests on recorded answers, so both go through the same
 * order, budget and stops.
 */
import type { AttemptResult } from '../api/client/single-attempt.js';
import { type AuthScheme, joinUrl } from '../api/contract/index.js';
import type { CallRecord, DiagnosisCall } from './observe.js';
import { type PacingLimits, type StopReason, afterAnswer, budgetLeft, retryHintOf } from './pacing.js';
import {
  DOCS_CALL,
  MAX_PLATFORM_CALLS,
  MAX_TENANT_GUESSES,
  guessCall,
  guessMissed,
  indexCall,
  otherHeaderCall,
  platformCall,
  resourceCall,
  resourceCalls,
  settlesKeyKind,
} from './plan.js';
import { tenantFromListing, tenantsInDocs } from './tenant-hints.js';
import type { DiagnosisTraffic, TenantGuess, TenantSource } from './types.js';

export type ScheduleStep =
  | { readonly kind: 'send'; readonly call: DiagnosisCall }
  | { readonly kind: 'wait'; readonly ms: number; readonly check: string };

/** What the driver hands back after a `send` step; nothing after a `wait`. */
export interface Answered {
  readonly result: AttemptResult;
  /** Wall-clock time the answer arrived (an HTTP-date Retry-After is relative to it). */
  readonly atMs: number;
}

export interface ScheduleInput {
  readonly baseUrl: string;
  readonly auth: AuthScheme;
  /** The tenant named in the pasted URL. */
  readonly urlTenant: string | undefined;
  /** --tenant */
  readonly tenant: string | undefined;
  /** --platform-path; undefined: what /docs lists. */
  readonly platformPaths: readonly string[] | undefined;
  /** Used when neither --platform-path nor /docs names any. */
  readonly learnPlatformPaths: (docs: AttemptResult | undefined) => readonly string[];
  readonly limits: PacingLimits;
}

export interface TenantPlan {
  /** The tenant the resource calls used: the URL's, else --tenant, else inferred. */
  readonly probedTenant: string | undefined;
  readonly tenantSource: TenantSource;
  /** --tenant when the URL names a different one: the tenant the key is said to belong to. */
  readonly keyTenant: string | undefined;
  readonly guesses: readonly TenantGuess[];
}

export interface ScheduleOutcome {
  readonly records: ReadonlyMap<string, CallRecord>;
  /** The /platform/ sub-paths with a row: tried, or planned when the run stopped. */
  readonly platformPaths: readonly string[];
  readonly tenants: TenantPlan;
  readonly traffic: DiagnosisTraffic;
}

type Gen<T> = Generator<ScheduleStep, T, Answered | undefined>;

export function* schedule(input: ScheduleInput): Gen<ScheduleOutcome> {
  const records = new Map<string, CallRecord>();
  const waits: DiagnosisTraffic['waits'][number][] = [];
  let requests = 0;
  let waitedMs = 0;
  let stopped: StopReason | undefined;
  let previousNoAnswer: string | undefined;

  function* call(c: DiagnosisCall): Gen<CallRecord> {
    const url = joinUrl(input.baseUrl, c.path);
    let attempts = 0;
    for (;;) {
      stopped ??= budgetLeft({ requests, waitedMs }, input.limits);
      if (stopped) return keep({ call: c, url, result: undefined, attempts });
      const answered = yield { kind: 'send', call: c };
      if (!answered) throw new Error(`no answer handed back for ${c.id}`);
      requests += 1;
      attempts += 1;
      const hint = retryHintOf(answered.result, answered.atMs);
      const spent = { requests, waitedMs };
      const decision = afterAnswer({ check: c.id, result: answered.result, hint, retried: attempts > 1, previousNoAnswer, spent, limits: input.limits });
      previousNoAnswer = answered.result.kind === 'failure' ? c.id : undefined;
      if (decision.kind === 'retry') {
        yield { kind: 'wait', ms: decision.waitMs, check: c.id };
        waitedMs += decision.waitMs;
        waits.push({ check: c.id, ms: decision.waitMs, source: decision.hint.source });
        continue;
      }
      if (decision.kind === 'stop') stopped = decision.reason;
      return keep({ call: c, url, result: answered.result, attempts, ...(hint ? { retryHint: hint } : {}) });
    }
  }
  const keep = (record: CallRecord): CallRecord => {
    records.set(record.call.id, record);
    return record;
  };

  const docs = yield* call(DOCS_CALL);
  const platformPaths = (input.platformPaths ?? input.learnPlatformPaths(docs.result)).slice(0, MAX_PLATFORM_CALLS);
  const given = input.urlTenant ?? input.tenant;
  if (given !== undefined) for (const c of resourceCalls(input.auth, given)) yield* call(c);

  const tried: string[] = [];
  let listed: string | undefined;
  for (const sub of platformPaths) {
    // One sub-path that answered is enough; after a stop, one row says the kind was not checked.
    if (tried.some((id) => settlesKeyKind(records.get(id)?.result)) || (stopped && tried.length > 0)) break;
    const record = yield* call(platformCall(input.auth, sub));
    tried.push(record.call.id);
    listed ??= tenantFromListing(record.result);
  }

  let tenants: TenantPlan;
  if (given !== undefined) {
    tenants = { probedTenant: given, tenantSource: input.urlTenant !== undefined ? 'url' : 'flag', keyTenant: input.urlTenant !== undefined ? input.tenant : undefined, guesses: [] };
  } else if (listed !== undefined) {
    tenants = { probedTenant: listed, tenantSource: 'platform', keyTenant: undefined, guesses: [] };
    for (const c of resourceCalls(input.auth, listed)) yield* call(c);
  } else {
    tenants = yield* guessTenant(tenantsInDocs(docs.result).slice(0, MAX_TENANT_GUESSES));
  }
  if (tenants.probedTenant !== undefined) yield* call(otherHeaderCall(input.auth, tenants.probedTenant));
  yield* call(indexCall(input.auth));

  const shownPaths = tried.map((id) => id.slice('platform:'.length));
  const notRun = [...records.values()].filter((r) => r.result === undefined).map((r) => r.call.id);
  const traffic: DiagnosisTraffic = { requestBudget: input.limits.budget, requestsSent: requests, maxWaitMs: input.limits.maxWaitMs, waitedMs, waits, stopped, notRun };
  return { records, platformPaths: shownPaths, tenants, traffic };

  /**
   * Tenants /docs names, tried on clients until one is not refused as another tenant's: that
   * answer is its clients call, and the other resources follow. A platform key never gets here
   * (its listing named a tenant), so a mismatch means "a tenant key, not this tenant".
   */
  function* guessTenant(slugs: readonly string[]): Gen<TenantPlan> {
    const guesses: TenantGuess[] = [];
    for (const slug of slugs) {
      const record = yield* call(guessCall(input.auth, slug));
      guesses.push({ slug, check: record.call.id });
      if (record.result === undefined || guessMissed(record.result)) continue;
      keep({ ...record, call: resourceCall(input.auth, slug, 'clients') });
      for (const c of resourceCalls(input.auth, slug)) if (c.endpoint !== 'clients') yield* call(c);
      return { probedTenant: slug, tenantSource: 'docs', keyTenant: undefined, guesses };
    }
    return { probedTenant: undefined, tenantSource: 'none', keyTenant: undefined, guesses };
  }
}
