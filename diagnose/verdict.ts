/**
 * The verdict: the first failing row's finding, as support says it. Its kind is the answer kind
 * the checklist core read (`answerKind`), so the probe and `npm run check` cannot disagree; the
 * probe adds only `incomplete` and `header_forms_differ`. The step is evidence, never the headline.
 */
import { ANSWER_KINDS } from '../api/contract/index.js';
import { CONNECTION_CODES } from './explain.js';
import { type DiagnosisRow, type Finding, type ReportBody, STEPS, STEP_TITLES } from './types.js';

export const VERDICT_KINDS = [...ANSWER_KINDS, 'incomplete', 'header_forms_differ'] as const;
export type VerdictKind = (typeof VERDICT_KINDS)[number];

/** The headline word(s) (`RATE LIMITED`), one line with what happened and where, and what support does next. */
export type Said = Readonly<Record<'headline' | 'summary' | 'next', string>>;

/** The first failing row: the call and the step where the cause showed. */
export type VerdictEvidence = ReturnType<typeof evidenceOf>;
/** A broken verdict before it is worded; `notApi` says why the base URL does not lead to API v1 (headline NOT THE API). */
export type BrokenFacts = ReturnType<typeof brokenFacts>;
export type DiagnosisVerdict = (Said & { readonly kind: 'ok' }) | (Said & ReturnType<typeof incompleteFacts>) | (Said & BrokenFacts);

/** What renderers and the exit code read. */
export type DiagnosisReport = ReportBody & { readonly verdict: DiagnosisVerdict; readonly exitCode: 0 | 1 };

/** The rows whose failure means the base URL does not lead to the API (not `/`: it decides nothing). */
const BASE_ROWS: ReadonlySet<string> = new Set(['base-path', 'host', 'path']);

function evidenceOf(row: DiagnosisRow) {
  return {
    check: row.check,
    title: row.title,
    step: row.step,
    stepNumber: STEPS.indexOf(row.step) + 1,
    stepTitle: STEP_TITLES[row.step],
    url: row.request?.url,
    httpStatus: row.httpStatus,
    errorCode: row.errorCode,
    requestId: row.requestId,
    traceId: row.traceId,
  };
}

/** No complete HTTP answer: the kind is the finding's (`answerKind`), the failure adds how. */
function failureFacts(f: Extract<Finding, { failure: unknown }>, evidence: VerdictEvidence, input: ReportBody) {
  const { failure } = f;
  if (failure.kind === 'timeout') return { kind: 'timeout' as const, evidence, phase: failure.phase, timeoutS: input.timeoutS };
  const code = 'code' in failure ? failure.code : failure.kind;
  if (f.kind === 'connection_error') return { kind: f.kind, evidence, how: CONNECTION_CODES[code]?.[1] ?? ('dropped' as const), code };
  if (f.kind === 'tls_error') return { kind: f.kind, evidence, code };
  // A body past the size cap: no status, and nothing says the base URL is wrong.
  return { kind: 'invalid_envelope' as const, evidence, status: undefined, notApi: undefined };
}

/** The facts of the first failing row, keyed by its finding's kind. */
export function brokenFacts(row: DiagnosisRow, input: ReportBody) {
  const evidence = evidenceOf(row);
  const f = row.finding;
  if ('failure' in f) return failureFacts(f, evidence, input);
  switch (f.kind) {
    case 'base_path_wrong':
      return { kind: 'not_found' as const, evidence, status: undefined, code: undefined, notApi: 'base_path' as const };
    case 'header_forms_differ':
      return { kind: f.kind, evidence };
    case 'rate_limited': {
      const stop = input.traffic.stopped;
      return {
        kind: f.kind,
        evidence,
        retryAfterS: f.retryAfterS,
        /** Why the run stopped there; undefined when it went on (a later call was limited for good). */
        stopped: stop?.kind === 'rate_limited' ? stop.why : undefined,
        notRun: input.traffic.notRun.length,
        /** The limited call carried the key; a 429 on keyless /docs is the host's or a proxy's limit. */
        keyed: row.request?.auth !== 'none',
      };
    }
    case 'server_error':
      return { kind: f.kind, evidence, status: f.status, html: f.html, code: f.code };
    case 'invalid_envelope': {
      // Once the path row has seen the API's envelope at this base URL, a path answering without
      // it (`/` included) is the API's fault (or a proxy's in front of that path), not a wrong base URL.
      const apiAtBase = input.checks.find((r) => r.check === 'path')?.status === 'pass';
      if (!BASE_ROWS.has(row.check) && apiAtBase) return { kind: f.kind, evidence, status: f.status, notApi: undefined };
      const notApi = f.html ? ('html_page' as const) : f.status === 404 ? ('not_found' as const) : ('not_envelope' as const);
      return { kind: f.kind, evidence, status: f.status, notApi };
    }
    case 'redirect':
      return { kind: f.kind, evidence, status: f.status, location: f.location, notApi: 'redirect' as const };
    case 'not_found':
      // Nothing at the path: the tenant (or resource) does not exist there, or, on a base row, the base URL is wrong.
      return {
        kind: f.kind,
        evidence,
        status: f.status,
        code: f.code,
        notApi: BASE_ROWS.has(row.check) ? ('not_found' as const) : undefined,
      };
    case 'unauthorized':
      return { kind: f.kind, evidence, status: f.status, code: f.code, testKeyOnProduction: f.testKeyOnProduction };
    case 'tenant_mismatch':
      return { kind: f.kind, evidence, urlTenant: f.urlTenant, keyTenant: f.keyTenant };
    case 'insufficient_scope':
      // `code` is the server's, whatever its spelling (`insufficient_scope`, `forbidden`, `scope_denied`...).
      return { kind: f.kind, evidence, resource: f.resource, readable: f.readable, status: f.status, code: f.code };
    case 'forbidden':
    case 'client_error':
      return { kind: f.kind, evidence, status: f.status, code: f.code };
    default:
      throw new Error(`failing row ${row.check} has finding ${f.kind}`);
  }
}

/** Nothing failed, but the key was never tried on a path that needs one: no claim it works. */
export function incompleteFacts(input: ReportBody) {
  const reason = input.traffic.stopped
    ? ('stopped' as const)
    : input.tenant.probed === undefined && input.tenant.guessed.length > 0
      ? ('guesses_mismatched' as const)
      : input.key.kind === 'platform'
        ? ('platform_no_tenant' as const)
        : ('no_tenant' as const);
  const notChecked = input.checks.filter((r) => r.status === 'skip').map((r) => r.check);
  return { kind: 'incomplete' as const, reason, keyKind: input.key.kind, notChecked };
}
