/**
 * The pure core: recorded answers in, the discovery report out. The I/O edge (`run.ts`) uses
 * the same helpers to plan its calls, so what it asks and what is read back cannot drift.
 */
import type { AuthScheme } from '../api/contract/index.js';
import { platformPathsInDocs } from '../api/contract/readings.js';
import type { AttemptResult } from '../api/client/single-attempt.js';
import { type Observations, type StopReason } from '../diagnose/index.js';
import { okData } from '../diagnose/index.js';
import { answerText, evidenceOf } from './answer.js';
import { indexAccessFinding, invalidKeyFinding, missingKeyFinding } from './findings/access.js';
import { type FindingContext, NEEDS_KEY, NEEDS_TENANT } from './findings/context.js';
import { rateLimitHeadersFinding, requestIdHeaderFinding } from './findings/headers.js';
import { keyKindFinding, platformPathsFinding, platformRefusalFinding } from './findings/key.js';
import { readableResourcesFinding, scopeRefusalFinding } from './findings/scope.js';
import { slugStyleFinding } from './findings/slugs.js';
import { MAX_REQUESTS } from './plan.js';
import type { HostCheck, Reading } from './types.js';

/** Every finding, in table order. */
const FINDINGS = {
  indexAccess: indexAccessFinding,
  invalidKey: invalidKeyFinding,
  missingKey: missingKeyFinding,
  platformPaths: platformPathsFinding,
  keyKind: keyKindFinding,
  platformRefusal: platformRefusalFinding,
  readableResources: readableResourcesFinding,
  scopeRefusal: scopeRefusalFinding,
  slugStyle: slugStyleFinding,
  rateLimitHeaders: rateLimitHeadersFinding,
  requestIdHeader: requestIdHeaderFinding,
};

export type DiscoveryFindings = { readonly [K in keyof typeof FINDINGS]: ReturnType<(typeof FINDINGS)[K]> };
export type FindingName = keyof DiscoveryFindings;
export const FINDING_NAMES = Object.keys(FINDINGS) as readonly FindingName[];

export interface DiscoverySettings {
  /** Checked by the contract's checkBaseUrl: ends in /api/v1, no credentials or query. */
  readonly baseUrl: string;
  readonly auth: AuthScheme;
  /** ApiKey.hint of the user's key; undefined without one (then no call presents it). */
  readonly keyHint: string | undefined;
  /** --tenant */
  readonly tenant: string | undefined;
  /** --platform-path; undefined: the sub-paths /docs lists. */
  readonly platformPaths: readonly string[] | undefined;
}

export interface DiscoveryReport {
  readonly tool: 'repairmon discover';
  readonly baseUrl: string;
  readonly auth: AuthScheme;
  /** The key's last characters (ApiKey.hint), or null when discovery ran without one. */
  readonly keyHint: string | null;
  /** --tenant, or null. */
  readonly tenant: string | null;
  readonly host: HostCheck;
  readonly findings: DiscoveryFindings;
  /** Findings left unknown because no key (no --tenant) was given: empty with one. */
  readonly needKey: readonly FindingName[];
  readonly needTenant: readonly FindingName[];
  /** `stopped`: why the engine sent no more (a 429, the budget, two calls unanswered), else null. */
  readonly requests: { readonly made: number; readonly max: number; readonly stopped: StopReason | null };
  readonly exitCode: 0 | 1;
}

/**
 * /docs is public by the spec (§5.7) and answers with the envelope: the one answer any API v1
 * gives. Anything else (no answer, a redirect, another page) and discovery stops there, before
 * a key is sent anywhere.
 */
export function hostCheck(docs: AttemptResult | undefined): HostCheck {
  if (docs === undefined) return { kind: 'not_api_v1', why: 'GET /docs was not asked' };
  const record = `GET /docs without a key -> ${answerText(docs)}`;
  if (okData(docs)) return { kind: 'api_v1', evidence: `${record} with the envelope` };
  return { kind: 'not_api_v1', why: `${record}: not API v1's public catalog (a 2xx with the envelope)` };
}

/** The sub-paths /docs lists, or none when /docs did not answer as the catalog. */
export function platformPathsOf(docs: AttemptResult | undefined): string[] {
  const catalog = okData(docs);
  return catalog ? platformPathsInDocs(catalog.data) : [];
}

/** Findings whose unknown reason is the missing key or tenant, for the "pass ... to learn" line. */
function waitingOn(findings: DiscoveryFindings, need: string): FindingName[] {
  return FINDING_NAMES.filter((name) => {
    const finding = findings[name];
    return finding.kind === 'unknown' && finding.why.includes(need);
  });
}

export function buildDiscoveryReport(input: DiscoverySettings, observations: Observations, stopped?: StopReason): DiscoveryReport {
  const docs = observations.get('docs');
  const host = hostCheck(docs?.result);
  const ctx: FindingContext = {
    observations,
    keyGiven: input.keyHint !== undefined,
    tenant: input.tenant,
    platformPathsListed: platformPathsOf(docs?.result),
    platformPathsGiven: input.platformPaths,
  };
  const notAsked: Reading<never> = { kind: 'unknown', why: `not asked: ${docs ? evidenceOf(docs) : 'GET /docs was not asked'}` };
  const findings = Object.fromEntries(
    FINDING_NAMES.map((name) => [name, host.kind === 'api_v1' ? FINDINGS[name](ctx) : notAsked]),
  ) as unknown as DiscoveryFindings;
  return {
    tool: 'repairmon discover',
    baseUrl: input.baseUrl,
    auth: input.auth,
    keyHint: input.keyHint ?? null,
    tenant: input.tenant ?? null,
    host,
    findings,
    needKey: host.kind === 'api_v1' ? waitingOn(findings, NEEDS_KEY) : [],
    needTenant: host.kind === 'api_v1' ? waitingOn(findings, NEEDS_TENANT) : [],
    requests: { made: [...observations.values()].reduce((sum, r) => sum + r.attempts, 0), max: MAX_REQUESTS, stopped: stopped ?? null },
    exitCode: host.kind === 'api_v1' ? 0 : 1,
  };
}
