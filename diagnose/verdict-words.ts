/**
 * How a verdict reads: one headline per kind, a one-line summary (what went wrong, then the
 * call and the step it showed at, in brackets), and the next step for support.
 */
import { ABSURD_WAIT_S, absurdWait, callIds, explainStop, retryAfterText } from './explain.js';
import { type StopReason } from './engine.js';
import type { DiagnosisRow, ReportBody } from './types.js';
import { type BrokenFacts, type DiagnosisVerdict, type Said, type VerdictEvidence, type VerdictKind } from './verdict.js';
import { brokenFacts, incompleteFacts } from './verdict.js';

/** The words support reads first; `headlineOf` says NOT THE API or NO COMPLETE ANSWER where the facts do. */
const HEADLINES: Readonly<Record<VerdictKind, string>> = {
  ok: 'OK',
  incomplete: 'NOT CHECKED',
  rate_limited: 'RATE LIMITED',
  server_error: 'SERVER ERROR',
  timeout: 'TIMEOUT',
  connection_error: 'HOST UNREACHABLE',
  tls_error: 'HOST UNREACHABLE',
  invalid_envelope: 'NO COMPLETE ANSWER',
  redirect: 'NOT THE API',
  unauthorized: 'KEY REJECTED',
  tenant_mismatch: 'TENANT MISMATCH',
  insufficient_scope: 'SCOPE MISSING',
  forbidden: 'REFUSED',
  not_found: 'NOT FOUND',
  client_error: 'REQUEST REFUSED',
  header_forms_differ: 'HEADER FORMS DIFFER',
};

export function headlineOf(facts: Pick<DiagnosisVerdict, 'kind'> | BrokenFacts): string {
  if ('notApi' in facts && facts.notApi !== undefined) return 'NOT THE API';
  if ('how' in facts && facts.how === 'dropped') return 'NO COMPLETE ANSWER';
  // A whole answer without the envelope on a path past the base URL: the API's answer is broken.
  if (facts.kind === 'invalid_envelope' && 'status' in facts && facts.status !== undefined) return 'BROKEN ANSWER';
  return HEADLINES[facts.kind];
}

type Incomplete = Extract<DiagnosisVerdict, { kind: 'incomplete' }>;

function pathOf(url: string | undefined): string | undefined {
  return url === undefined ? undefined : (URL.parse(url)?.pathname ?? url);
}

/** `[GET /api/v1/tenants/a/logs: HTTP 429 rate_limited; step 4 (scope), check scope:logs]` */
function bracket(e: VerdictEvidence): string {
  const path = pathOf(e.url);
  const answer = e.httpStatus !== undefined ? `HTTP ${e.httpStatus}${e.errorCode ? ` ${e.errorCode}` : ''}` : 'no HTTP answer';
  const call = path === undefined ? '' : `GET ${path}: ${answer}; `;
  return `[${call}step ${e.stepNumber} (${e.stepTitle}), check ${e.check}]`;
}

const RATE_LIMIT_STOPS: Readonly<Record<Extract<StopReason, { why: unknown }>['why'], string>> = {
  no_hint: 'the server named no wait, so the probe stopped rather than add to the load',
  too_long: 'longer than the probe waits (--max-wait), so it stopped',
  still_limited: 'still limited after one wait as asked, so the probe stopped',
  budget: 'a retry would pass the request budget, so the probe stopped',
};

function rateLimitedLead(facts: Extract<BrokenFacts, { kind: 'rate_limited' }>, input: ReportBody): string {
  const parts = [facts.retryAfterS === undefined ? 'no Retry-After' : retryAfterText(facts.retryAfterS)];
  if (facts.stopped !== undefined)
    parts.push(`${RATE_LIMIT_STOPS[facts.stopped]} (${facts.notRun} ${facts.notRun === 1 ? 'call' : 'calls'} not run)`);
  if (!facts.keyed) parts.push("the limited call carried no key, so the limit is the host's or a proxy's, not only this key's");
  else if (input.checks.find((r) => r.check === 'key')?.status === 'pass') parts.push('the key itself was accepted');
  return parts.join('; ');
}

function lead(facts: BrokenFacts, row: DiagnosisRow, input: ReportBody): string {
  switch (facts.kind) {
    case 'rate_limited':
      return rateLimitedLead(facts, input);
    case 'server_error':
      return facts.html
        ? `HTTP ${facts.status} as an HTML page: a proxy or gateway in front of the API answered, not the API; not a key problem`
        : `HTTP ${facts.status}${facts.code ? ` ${facts.code}` : ''} from the API: the server failed; not a key problem`;
    case 'timeout':
      return `no answer within ${facts.timeoutS} s (${facts.phase === 'connect' ? 'connecting' : `waiting for the response ${facts.phase}`})`;
    default:
      return row.explanation;
  }
}

const UNREACHABLE_NEXT = {
  dns: "check the host name in the base URL (does it resolve from the customer's network?)",
  refused: 'check the host and port in the base URL; if they are right, the API is down: escalate to the API on-call',
  network: 'check routing and firewalls between here and the host',
} as const;

/** What the API team searches its logs by: the request id and the trace id together, else the URL and the time. */
function withRequestId(e: VerdictEvidence): string {
  return callIds(e) || 'the URL and the time';
}

function waitFor(retryAfterS: number | undefined): string {
  if (retryAfterS !== undefined && retryAfterS > ABSURD_WAIT_S) {
    return `report the 429's wait of ${absurdWait(retryAfterS)} to the API team (no quota window is that long: a broken hint), wait an hour`;
  }
  return `wait ${retryAfterS ?? 60} s`;
}

function nextStep(facts: BrokenFacts): string {
  const e = facts.evidence;
  const path = pathOf(e.url) ?? e.check;
  switch (facts.kind) {
    case 'rate_limited':
      if (!facts.keyed)
        return `${waitFor(facts.retryAfterS)} and run again; a limit on calls without a key is the API's or a proxy's: ask the API team about it`;
      if (facts.stopped === 'no_hint')
        return 'wait a minute and run again; the server named no wait, so ask the API team which limit applies to this key';
      return `${waitFor(facts.retryAfterS)}, then run the probe again; if the customer's integration uses this key meanwhile, it is what spends the quota: have it honour Retry-After`;
    case 'server_error':
      return facts.html
        ? `escalate to the API on-call: the proxy or gateway in front of the API failed on ${path} (${withRequestId(e)}); the key is not the problem`
        : `escalate to the API on-call with ${withRequestId(e)}; the key is not the problem`;
    case 'timeout':
      return `rerun with a longer --timeout; if ${path} still hangs, escalate to the API on-call with ${withRequestId(e)}`;
    case 'tls_error':
      return 'check http vs https in the base URL, and the certificate the host serves';
    case 'connection_error':
      return facts.how === 'dropped'
        ? `run again; if the connection keeps dropping on ${path}, escalate to the API on-call`
        : UNREACHABLE_NEXT[facts.how];
    case 'redirect':
      return 'use the address the API answers on as the base URL (http vs https, or a moved host)';
    case 'invalid_envelope':
      if (facts.notApi === undefined && facts.status !== undefined)
        return `escalate to the API on-call: ${path} answered without the API's envelope while the base URL answers as the API (${withRequestId(e)}); the key is not the problem`;
      if (facts.notApi === undefined) return `run again; if ${path} keeps sending a body past the size cap, escalate to the API on-call`;
      return 'check the base URL: it reaches something other than API v1 (a proxy, a web server, a wrong path)';
    case 'not_found':
      if (facts.notApi === 'base_path') return "fix the base URL: it must be the API's address ending in /api/v1";
      if (facts.notApi !== undefined)
        return 'check the base URL: it reaches something other than API v1 (a proxy, a web server, a wrong path)';
      return `check the tenant slug and the path: the API has nothing at ${path}`;
    case 'unauthorized':
      return facts.testKeyOnProduction
        ? 'give the customer their production key for this host: a test key belongs to the test environment'
        : 'the key is wrong, revoked or for the other environment: confirm its last 4 characters with the customer, and issue a new one if it was revoked';
    case 'tenant_mismatch':
      return facts.keyTenant !== undefined && facts.keyTenant !== facts.urlTenant
        ? `call /tenants/${facts.keyTenant}/... with this key, or use ${facts.urlTenant}'s own key for ${facts.urlTenant}`
        : `ask which shop the key was issued for, and use that tenant in the URL (or ${facts.urlTenant}'s own key)`;
    case 'insufficient_scope':
      return `extend the key's scope to ${facts.resource ?? 'this resource'}, or have the customer stop calling it${facts.readable.length > 0 ? ` (it may read ${facts.readable.join(', ')})` : ''}`;
    case 'forbidden':
      return `ask the API team why ${path} refuses this key with ${facts.code} (the spec does not name that code)`;
    case 'client_error':
      return `the API refused the request itself (${facts.code}): check the tenant slug's spelling and the path`;
    case 'header_forms_differ':
      return 'have the customer send the key the way that works, and tell the API team the other form is answered differently (a proxy may drop or rewrite the header)';
  }
}

export function brokenWords(facts: BrokenFacts, row: DiagnosisRow, input: ReportBody): Said {
  const headline = headlineOf(facts);
  return { headline, summary: `${headline}: ${lead(facts, row, input)} ${bracket(facts.evidence)}`, next: nextStep(facts) };
}

const RUN_AGAIN = 'run again with --tenant SLUG';

/** Why the key was never tried on a tenant path, and what to run instead. */
function incompleteWhy(facts: Omit<Incomplete, keyof Said>, input: ReportBody): [string, string] {
  switch (facts.reason) {
    case 'stopped':
      return [
        `${input.traffic.stopped ? explainStop(input.traffic.stopped) : 'the run stopped'} before a tenant path was called`,
        'run the probe again later',
      ];
    case 'guesses_mismatched':
      return [
        `the key belongs to none of the tenants /docs names (${input.tenant.guessed.join(', ')})`,
        `${RUN_AGAIN}, the shop the key was issued for`,
      ];
    case 'platform_no_tenant':
      return ['a platform key, and /platform/ listed no tenant to read', `${RUN_AGAIN} (any tenant: a platform key may read every one)`];
    case 'no_tenant': {
      const kind = facts.keyKind === 'unknown' ? "the key's kind is unknown" : 'a tenant key';
      const platform = facts.keyKind === 'unknown' ? '; for a platform key, --platform-path PATH lets the probe list tenants itself' : '';
      return [
        `${kind}, and the API cannot say which tenant a key belongs to (no --tenant, no tenant in the URL, none named by /docs)`,
        `${RUN_AGAIN} (the shop the key was issued for), or pass the customer's full URL (.../tenants/SLUG/...) as --base-url${platform}`,
      ];
    }
  }
}

export function incompleteWords(facts: Omit<Incomplete, keyof Said>, input: ReportBody): Said {
  const headline = HEADLINES.incomplete;
  const [why, next] = incompleteWhy(facts, input);
  return {
    headline,
    summary: `${headline}: ${why}, so whether key ${input.key.hint} works, and its tenant and scope, were not checked`,
    next,
  };
}

export function okWords(input: ReportBody): Said {
  const readable = input.checks.filter((r) => r.step === 'scope' && r.status === 'pass').map((r) => r.check.slice('scope:'.length));
  const skipped = input.checks.filter((r) => r.status === 'skip').map((r) => r.check);
  const kind = input.key.kind === 'unknown' ? 'key' : `${input.key.kind} key`;
  const reads = input.tenant.probed === undefined ? '' : `; reads ${readable.join(', ')} of tenant ${input.tenant.probed}`;
  const rest = skipped.length > 0 ? ` (not checked: ${skipped.join(', ')})` : '';
  // The key works; a failing /docs is the API's to fix, said here so an OK does not hide it.
  const docs = input.checks.find((r) => r.finding.kind === 'docs_failed');
  const warned = docs === undefined ? '' : `; but /docs failed (HTTP ${docs.httpStatus ?? '?'}): see the docs row`;
  return {
    headline: HEADLINES.ok,
    summary: `${HEADLINES.ok}: ${kind} ${input.key.hint} works against ${input.baseUrl}${reads}${rest}${warned}`,
    next: `nothing to fix on this key here: compare the customer's own request (URL, header form, tenant) with these calls, and replay it with curl (spec §7, step 5)${docs === undefined ? '' : '; report the failing /docs to the API on-call'}`,
  };
}

export function verdictOf(input: ReportBody): DiagnosisVerdict {
  const broken = input.checks.find((r) => r.status === 'fail');
  if (broken) {
    const facts = brokenFacts(broken, input);
    return { ...facts, ...brokenWords(facts, broken, input) };
  }
  if (input.checks.find((r) => r.check === 'key')?.status !== 'pass') {
    const facts = incompleteFacts(input);
    return { ...facts, ...incompleteWords(facts, input) };
  }
  return { kind: 'ok', ...okWords(input) };
}
