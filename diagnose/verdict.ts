/**
 * The verdict: the first failing row's finding, as support says it. Its kind is the answer
 * kind the checklist core read from that row's call (`answerKind`), so the probe and a
 * customer's `npm run check` cannot disagree on what went wrong; the probe adds only
 * `incomplete` (nothing failed, but the key was never tried where it needs to work) and
 * `header_forms_differ`. The step where the failure showed is evidence, never the headline.
 * Pure: it never reads a response again.
 */
import { ANSWER_KINDS, type KeyKind, type TenantResource } from '../api/contract/index.js';
import type { TimeoutPhase } from '../api/client/single-attempt.js';
import type { RateLimitStop } from './pacing.js';
import { type DiagnosisReport, type DiagnosisRow, type Finding, STEPS, STEP_TITLES } from './types.js';
import { brokenWords, incompleteWords, okWords } from './verdict-words.js';

export const VERDICT_KINDS = [...ANSWER_KINDS, 'incomplete', 'header_forms_differ'] as const;
export type VerdictKind = (typeof VERDICT_KINDS)[number];

/** The first failing row: the call and the step where the cause showed. */
export interface VerdictEvidence {
  readonly check: string;
  readonly title: string;
  readonly step: string;
  readonly stepNumber: number;
  readonly stepTitle: string;
  readonly url?: string | undefined;
  readonly httpStatus?: number | undefined;
  readonly errorCode?: string | undefined;
  readonly requestId?: string | undefined;
  readonly traceId?: string | undefined;
}

export interface Said {
  /** The headline word(s), e.g. `RATE LIMITED`. */
  readonly headline: string;
  /** One line: the headline, what happened and where. */
  readonly summary: string;
  /** What support does next. */
  readonly next: string;
}

type Broken<K extends VerdictKind, Detail = unknown> = Said & { readonly kind: K; readonly evidence: VerdictEvidence } & Detail;

/** Why the answers show the base URL does not lead to API v1 (headline NOT THE API). */
export type NotApiReason = 'base_path' | 'not_found' | 'redirect' | 'html_page' | 'not_envelope';

/** How a connection failed: the host could not be reached, or an answer was cut short (`dropped`). */
export type ConnectionFailure = 'dns' | 'refused' | 'network' | 'dropped';

/** What kept the key from being tried on a tenant path. */
export type IncompleteReason =
  /** A tenant key (or one of unknown kind) and nothing named its tenant. */
  | 'no_tenant'
  /** A platform key whose listing named no tenant. */
  | 'platform_no_tenant'
  /** Every tenant /docs named answered tenant_key_tenant_mismatch. */
  | 'guesses_mismatched'
  /** The run stopped (budget) before a tenant path was called. */
  | 'stopped';

export type DiagnosisVerdict =
  | (Said & { readonly kind: 'ok' })
  /** Nothing failed, but the key was never tried on a path that needs one: no claim it works. */
  | (Said & {
      readonly kind: 'incomplete';
      readonly reason: IncompleteReason;
      readonly keyKind: KeyKind | 'unknown';
      readonly notChecked: readonly string[];
    })
  | Broken<
      'rate_limited',
      {
        readonly retryAfterS: number | undefined;
        /** Why the run stopped there; undefined when it went on (a later call was limited for good). */
        readonly stopped: RateLimitStop | undefined;
        readonly notRun: number;
        /** The limited call carried the key; a 429 on keyless /docs is the host's or a proxy's limit. */
        readonly keyed: boolean;
      }
    >
  | Broken<'server_error', { readonly status: number; readonly html: boolean; readonly code: string | undefined }>
  | Broken<'timeout', { readonly phase: TimeoutPhase; readonly timeoutS: number }>
  | Broken<'connection_error', { readonly how: ConnectionFailure; readonly code: string }>
  | Broken<'tls_error', { readonly code: string }>
  /** Not the API's envelope; without `notApi` (no status) a body past the size cap. */
  | Broken<'invalid_envelope', { readonly status: number | undefined; readonly notApi: NotApiReason | undefined }>
  | Broken<'redirect', { readonly status: number; readonly location: string | undefined; readonly notApi: 'redirect' }>
  /** Nothing at the path: the tenant (or resource) does not exist there, or, with `notApi`, the base URL is wrong. */
  | Broken<
      'not_found',
      { readonly status: number | undefined; readonly code: string | undefined; readonly notApi: NotApiReason | undefined }
    >
  | Broken<'unauthorized', { readonly status: number; readonly code: string | undefined; readonly testKeyOnProduction: boolean }>
  | Broken<'tenant_mismatch', { readonly urlTenant: string; readonly keyTenant: string | undefined }>
  /** `code` is the server's, whatever its spelling (`insufficient_scope`, `forbidden`, `scope_denied`...). */
  | Broken<
      'insufficient_scope',
      {
        readonly resource: TenantResource | undefined;
        readonly readable: readonly TenantResource[];
        readonly status: number;
        readonly code: string;
      }
    >
  /** A refusal with a code the checklist does not single out (e.g. 403 `forbidden` on every resource). */
  | Broken<'forbidden', { readonly status: number; readonly code: string }>
  /** Another error envelope, e.g. 400 `invalid_tenant_slug`. */
  | Broken<'client_error', { readonly status: number; readonly code: string }>
  | Broken<'header_forms_differ'>;

export type BrokenVerdict = Exclude<DiagnosisVerdict, { kind: 'ok' | 'incomplete' }>;

export type VerdictInput = Omit<DiagnosisReport, 'verdict' | 'exitCode'>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A broken verdict before it is worded. */
export type BrokenFacts = DistributiveOmit<BrokenVerdict, 'headline' | 'summary' | 'next'>;

/** The rows whose failure means the base URL does not lead to the API (not `/`: it decides nothing). */
const BASE_ROWS: ReadonlySet<string> = new Set(['base-path', 'host', 'path']);

const CONNECTION_FAILURES: Readonly<Record<string, ConnectionFailure>> = {
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'network',
  ENETUNREACH: 'network',
};

function evidenceOf(row: DiagnosisRow): VerdictEvidence {
  const stepIndex = STEPS.indexOf(row.step);
  return {
    check: row.check,
    title: row.title,
    step: row.step,
    stepNumber: stepIndex + 1,
    stepTitle: STEP_TITLES[row.step],
    url: row.request?.url,
    httpStatus: row.httpStatus,
    errorCode: row.errorCode,
    requestId: row.requestId,
    traceId: row.traceId,
  };
}

/** No complete HTTP answer: the kind is the finding's (`answerKind`), the failure adds how. */
function failureFacts(f: Extract<Finding, { failure: unknown }>, evidence: VerdictEvidence, input: VerdictInput): BrokenFacts {
  const { failure } = f;
  if (failure.kind === 'timeout') return { kind: 'timeout', evidence, phase: failure.phase, timeoutS: input.timeoutS };
  const code = 'code' in failure ? failure.code : failure.kind;
  if (f.kind === 'connection_error') return { kind: f.kind, evidence, how: CONNECTION_FAILURES[code] ?? 'dropped', code };
  if (f.kind === 'tls_error') return { kind: f.kind, evidence, code };
  return { kind: 'invalid_envelope', evidence, status: undefined, notApi: undefined };
}

/** The facts of the first failing row, keyed by its finding's kind. */
function brokenFacts(row: DiagnosisRow, input: VerdictInput): BrokenFacts {
  const evidence = evidenceOf(row);
  const f = row.finding;
  if ('failure' in f) return failureFacts(f, evidence, input);
  switch (f.kind) {
    case 'base_path_wrong':
      return { kind: 'not_found', evidence, status: undefined, code: undefined, notApi: 'base_path' };
    case 'header_forms_differ':
      return { kind: f.kind, evidence };
    case 'rate_limited': {
      const stop = input.traffic.stopped;
      const stopped = stop?.kind === 'rate_limited' ? stop.why : undefined;
      return {
        kind: f.kind,
        evidence,
        retryAfterS: f.retryAfterS,
        stopped,
        notRun: input.traffic.notRun.length,
        keyed: row.request?.auth !== 'none',
      };
    }
    case 'server_error':
      return { kind: f.kind, evidence, status: f.status, html: f.html, code: f.code };
    case 'invalid_envelope':
      return { kind: f.kind, evidence, status: f.status, notApi: f.html ? 'html_page' : f.status === 404 ? 'not_found' : 'not_envelope' };
    case 'redirect':
      return { kind: f.kind, evidence, status: f.status, location: f.location, notApi: 'redirect' };
    case 'not_found':
      return { kind: f.kind, evidence, status: f.status, code: f.code, notApi: BASE_ROWS.has(row.check) ? 'not_found' : undefined };
    case 'unauthorized':
      return { kind: f.kind, evidence, status: f.status, code: f.code, testKeyOnProduction: f.testKeyOnProduction };
    case 'tenant_mismatch':
      return { kind: f.kind, evidence, urlTenant: f.urlTenant, keyTenant: f.keyTenant };
    case 'insufficient_scope':
      return { kind: f.kind, evidence, resource: f.resource, readable: f.readable, status: f.status, code: f.code };
    case 'forbidden':
    case 'client_error':
      return { kind: f.kind, evidence, status: f.status, code: f.code };
    default:
      throw new Error(`failing row ${row.check} has finding ${f.kind}`);
  }
}

function incompleteReason(input: VerdictInput): IncompleteReason {
  if (input.traffic.stopped !== undefined) return 'stopped';
  if (input.tenant.probed === undefined && input.tenant.guessed.length > 0) return 'guesses_mismatched';
  return input.key.kind === 'platform' ? 'platform_no_tenant' : 'no_tenant';
}

export function verdictOf(input: VerdictInput): DiagnosisVerdict {
  const broken = input.checks.find((r) => r.status === 'fail');
  if (broken) {
    const facts = brokenFacts(broken, input);
    return { ...facts, ...brokenWords(facts, broken, input) };
  }
  const key = input.checks.find((r) => r.check === 'key');
  if (key?.status !== 'pass') {
    const facts = {
      kind: 'incomplete' as const,
      reason: incompleteReason(input),
      keyKind: input.key.kind,
      notChecked: input.checks.filter((r) => r.status === 'skip').map((r) => r.check),
    };
    return { ...facts, ...incompleteWords(facts, input) };
  }
  return { kind: 'ok', ...okWords(input) };
}
