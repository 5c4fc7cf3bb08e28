/**
 * The probe's run as a generator: it yields what to do next (send a call, or wait) and is handed
 * each answer. No I/O, so run.ts on the network and the tests on recorded answers go through the
 * same order, budget and stops.
 */
import type { AttemptResult } from '../api/client/single-attempt.js';
import { type AuthScheme, joinUrl } from '../api/contract/index.js';
import { type Call, type CallRecord, DOCS_CALL, MAX_PLATFORM_CALLS, isResponse, tenantsListed } from './observations.js';
import { type PacingLimits, type StopReason, afterAnswer, budgetLeft, retryHintOf } from './pacing.js';
import { MAX_TENANT_GUESSES, indexCall, otherHeaderCall, platformCall, resourceCall, resourceCalls, tenantsInDocs } from './plan.js';
import type { DiagnosisTraffic, TenantSource } from './types.js';

type ScheduleStep = { readonly kind: 'send'; readonly call: Call } | { readonly kind: 'wait'; readonly ms: number; readonly check: string };

/** Handed back after a `send` step, with when it arrived (an HTTP-date Retry-After is relative to it); nothing after a `wait`. */
export interface Answered {
  readonly result: AttemptResult;
  readonly atMs: number;
}

export interface ScheduleInput {
  readonly baseUrl: string;
  readonly auth: AuthScheme;
  readonly urlTenant: string | undefined;
  readonly tenant: string | undefined;
  /** --platform-path; when undefined, what `learnPlatformPaths` reads from /docs. */
  readonly platformPaths: readonly string[] | undefined;
  readonly learnPlatformPaths: (docs: AttemptResult | undefined) => readonly string[];
  readonly limits: PacingLimits;
}

export interface TenantPlan {
  /** The tenant the resource calls used: the URL's, else --tenant, else inferred. */
  readonly probedTenant: string | undefined;
  readonly tenantSource: TenantSource;
  /** --tenant when the URL names a different one: the tenant the key is said to belong to. */
  readonly keyTenant: string | undefined;
  readonly guesses: readonly string[];
}

export interface ScheduleOutcome {
  readonly records: ReadonlyMap<string, CallRecord>;
  readonly platformPaths: readonly string[];
  readonly tenants: TenantPlan;
  readonly traffic: DiagnosisTraffic;
}

type Gen<T> = Generator<ScheduleStep, T, Answered | undefined>;

/** What a run has spent and seen so far; only `call` changes it. */
interface RunState {
  readonly input: ScheduleInput;
  readonly records: Map<string, CallRecord>;
  readonly waits: DiagnosisTraffic['waits'][number][];
  requests: number;
  waitedMs: number;
  stopped: StopReason | undefined;
  previousNoAnswer: string | undefined;
}

function keep(run: RunState, record: CallRecord): CallRecord {
  run.records.set(record.call.id, record);
  return record;
}

/** One call: sent unless the run has stopped, retried once after a wait the server asked for. */
function* call(run: RunState, c: Call): Gen<CallRecord> {
  const url = joinUrl(run.input.baseUrl, c.path);
  let attempts = 0;
  for (;;) {
    run.stopped ??= budgetLeft(run, run.input.limits);
    if (run.stopped) return keep(run, { call: c, url, result: undefined, attempts });
    const answered = yield { kind: 'send', call: c };
    if (!answered) throw new Error(`no answer handed back for ${c.id}`);
    run.requests += 1;
    attempts += 1;
    const hint = retryHintOf(answered.result, answered.atMs);
    const { previousNoAnswer, requests, waitedMs } = run;
    const decision = afterAnswer({
      check: c.id,
      result: answered.result,
      hint,
      retried: attempts > 1,
      previousNoAnswer,
      spent: { requests, waitedMs },
      limits: run.input.limits,
    });
    run.previousNoAnswer = answered.result.kind === 'failure' ? c.id : undefined;
    if (decision.kind === 'retry') {
      yield { kind: 'wait', ms: decision.waitMs, check: c.id };
      run.waitedMs += decision.waitMs;
      run.waits.push({ check: c.id, ms: decision.waitMs, source: decision.hint.source });
      continue;
    }
    if (decision.kind === 'stop') run.stopped = decision.reason;
    return keep(run, { call: c, url, result: answered.result, attempts, ...(hint ? { retryHint: hint } : {}) });
  }
}

/** /platform/ sub-paths until one tells the key's kind; a platform key's listing may name a tenant. */
function* platformPhase(run: RunState, paths: readonly string[]): Gen<{ tried: string[]; listed: string | undefined }> {
  const tried: string[] = [];
  let listed: string | undefined;
  for (const sub of paths) {
    // Data (a platform key) or any refusal (a tenant key, or a rejected one) tells the key's kind; a 5xx,
    // a 429 or no answer tells nothing. After a stop, one row says the kind was not checked.
    const settled = (done: string): boolean => {
      const result = run.records.get(`platform:${done}`)?.result;
      return result?.kind === 'response' && result.status < 500 && result.status !== 429;
    };
    if (tried.some(settled) || (run.stopped && tried.length > 0)) break;
    const record = yield* call(run, platformCall(run.input.auth, sub));
    tried.push(sub);
    listed ??= tenantsListed(record.result)[0];
  }
  return { tried, listed };
}

/**
 * Tenants /docs names, tried on clients until one is not refused as another tenant's: that is
 * its clients call, and the other resources follow (a platform key is served the first).
 */
function* guessTenant(run: RunState, slugs: readonly string[]): Gen<TenantPlan> {
  const { auth } = run.input;
  const guesses: string[] = [];
  for (const slug of slugs) {
    const record = yield* call(run, { ...resourceCall(auth, slug, 'clients'), id: `guess:${slug}` });
    guesses.push(slug);
    // For a tenant key a mismatch means "not this one"; anything else decides.
    if (record.result === undefined || (isResponse(record.result) && record.result.classification.kind === 'tenant_mismatch')) continue;
    keep(run, { ...record, call: resourceCall(auth, slug, 'clients') });
    for (const c of resourceCalls(auth, slug)) if (c.endpoint !== 'clients') yield* call(run, c);
    return { probedTenant: slug, tenantSource: 'docs', keyTenant: undefined, guesses };
  }
  return { probedTenant: undefined, tenantSource: 'none', keyTenant: undefined, guesses };
}

/** The tenant to probe when support named none: a platform listing's, else one /docs names. */
function* inferTenant(run: RunState, listed: string | undefined, docs: AttemptResult | undefined): Gen<TenantPlan> {
  if (listed === undefined) return yield* guessTenant(run, tenantsInDocs(docs).slice(0, MAX_TENANT_GUESSES));
  for (const c of resourceCalls(run.input.auth, listed)) yield* call(run, c);
  return { probedTenant: listed, tenantSource: 'platform', keyTenant: undefined, guesses: [] };
}

export function* schedule(input: ScheduleInput): Gen<ScheduleOutcome> {
  const run: RunState = { input, records: new Map(), waits: [], requests: 0, waitedMs: 0, stopped: undefined, previousNoAnswer: undefined };
  const docs = yield* call(run, DOCS_CALL);
  const given = input.urlTenant ?? input.tenant;
  for (const c of given === undefined ? [] : resourceCalls(input.auth, given)) yield* call(run, c);
  const platform = yield* platformPhase(run, (input.platformPaths ?? input.learnPlatformPaths(docs.result)).slice(0, MAX_PLATFORM_CALLS));
  const tenants: TenantPlan =
    given === undefined
      ? yield* inferTenant(run, platform.listed, docs.result)
      : {
          probedTenant: given,
          tenantSource: input.urlTenant !== undefined ? 'url' : 'flag',
          keyTenant: input.urlTenant !== undefined ? input.tenant : undefined,
          guesses: [],
        };
  if (tenants.probedTenant !== undefined) yield* call(run, otherHeaderCall(input.auth, tenants.probedTenant));
  yield* call(run, indexCall(input.auth));
  const traffic: DiagnosisTraffic = {
    requestBudget: input.limits.budget,
    requestsSent: run.requests,
    maxWaitMs: input.limits.maxWaitMs,
    waitedMs: run.waitedMs,
    waits: run.waits,
    stopped: run.stopped,
    notRun: [...run.records.values()].filter((r) => r.result === undefined).map((r) => r.call.id),
  };
  return { records: run.records, platformPaths: platform.tried, tenants, traffic };
}
