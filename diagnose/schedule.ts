/**
 * The probe's plan as a generator of the engine's paced calls (`api/checklist/engine.ts`): it yields what to do next (send
 * a call, or wait) and is handed each answer. No I/O, so run.ts on the network and the tests on
 * recorded answers go through the same order, budget and stops.
 */
import { DOCS_CALL, resourceCall } from '../api/checklist/index.js';
import { type CallRecord, type Paced, type PacedRun, pacedCall, pacedRun } from './engine.js';
import type { AttemptResult } from '../api/client/single-attempt.js';
import type { AuthScheme } from '../api/contract/index.js';
import { PLATFORM_PATHS, platformPathsInDocs } from '../api/contract/readings.js';
import { MAX_PLATFORM_CALLS, isResponse, okData, tenantsListed } from './observations.js';
import { MAX_TENANT_GUESSES, indexCall, otherHeaderCall, platformCall, resourceCalls, tenantsInDocs } from './plan.js';
import { type Traffic, trafficOf } from './send.js';
import type { TenantSource } from './types.js';

function learnedPlatformPaths(docs: AttemptResult | undefined): readonly string[] {
  const listing = okData(docs);
  return listing ? platformPathsInDocs(listing.data) : PLATFORM_PATHS.default;
}

/** The probe's own settings beside its run. */
type RunState = PacedRun & { readonly input: ScheduleInput };

export interface ScheduleInput {
  readonly baseUrl: string;
  readonly auth: AuthScheme;
  readonly urlTenant: string | undefined;
  readonly tenant: string | undefined;
  /** --platform-path; undefined: the sub-paths /docs lists, else none (readings.ts PLATFORM_PATHS). */
  readonly platformPaths: readonly string[] | undefined;
  readonly limits: PacedRun['limits'];
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
  readonly traffic: Traffic;
}

/** /platform/ sub-paths until one tells the key's kind; a platform key's listing may name a tenant. */
function* platformPhase(run: RunState, paths: readonly string[]): Paced<{ tried: string[]; listed: string | undefined }> {
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
    const record = yield* pacedCall(run, platformCall(run.input.auth, sub));
    tried.push(sub);
    listed ??= tenantsListed(record.result)[0];
  }
  return { tried, listed };
}

/**
 * Tenants /docs names, tried on clients until one is not refused as another tenant's: that is
 * its clients call, and the other resources follow (a platform key is served the first).
 */
function* guessTenant(run: RunState, slugs: readonly string[]): Paced<TenantPlan> {
  const { auth } = run.input;
  const guesses: string[] = [];
  for (const slug of slugs) {
    const record = yield* pacedCall(run, { ...resourceCall(auth, slug, 'clients'), id: `guess:${slug}` });
    guesses.push(slug);
    // For a tenant key a mismatch means "not this one"; anything else decides.
    if (record.result === undefined || (isResponse(record.result) && record.result.classification.kind === 'tenant_mismatch')) continue;
    run.records.set('scope:clients', { ...record, call: resourceCall(auth, slug, 'clients') });
    for (const c of resourceCalls(auth, slug)) if (c.endpoint !== 'clients') yield* pacedCall(run, c);
    return { probedTenant: slug, tenantSource: 'docs', keyTenant: undefined, guesses };
  }
  return { probedTenant: undefined, tenantSource: 'none', keyTenant: undefined, guesses };
}

/** The tenant to probe when support named none: a platform listing's, else one /docs names. */
function* inferTenant(run: RunState, listed: string | undefined, docs: AttemptResult | undefined): Paced<TenantPlan> {
  if (listed === undefined) return yield* guessTenant(run, tenantsInDocs(docs).slice(0, MAX_TENANT_GUESSES));
  for (const c of resourceCalls(run.input.auth, listed)) yield* pacedCall(run, c);
  return { probedTenant: listed, tenantSource: 'platform', keyTenant: undefined, guesses: [] };
}

export function* schedule(input: ScheduleInput): Paced<ScheduleOutcome> {
  const run: RunState = { ...pacedRun(input.baseUrl, input.limits), input };
  const docs = yield* pacedCall(run, DOCS_CALL);
  const given = input.urlTenant ?? input.tenant;
  for (const c of given === undefined ? [] : resourceCalls(input.auth, given)) yield* pacedCall(run, c);
  const platform = yield* platformPhase(run, (input.platformPaths ?? learnedPlatformPaths(docs.result)).slice(0, MAX_PLATFORM_CALLS));
  const tenants: TenantPlan =
    given === undefined
      ? yield* inferTenant(run, platform.listed, docs.result)
      : {
          probedTenant: given,
          tenantSource: input.urlTenant !== undefined ? 'url' : 'flag',
          keyTenant: input.urlTenant !== undefined ? input.tenant : undefined,
          guesses: [],
        };
  if (tenants.probedTenant !== undefined) yield* pacedCall(run, otherHeaderCall(input.auth, tenants.probedTenant));
  yield* pacedCall(run, indexCall(input.auth));
  return { records: run.records, platformPaths: platform.tried, tenants, traffic: trafficOf(run) };
}
