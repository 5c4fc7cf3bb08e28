/**
 * The verdict: the first failing row's cause, as support says it. Pure: it maps the checklist
 * core's `ChecklistCause` each row carries (and the probe's own two findings that have no
 * call behind them); it never reads a response again, so the probe and a customer's
 * `npm run check` cannot disagree on what went wrong.
 */
import type { TransportFailure } from '../api/client/single-attempt.js';
import { type DiagnosisReport, type DiagnosisRow, STEPS, STEP_TITLES } from './types.js';
import type { BrokenVerdict, DiagnosisVerdict, IncompleteReason, Unreachable, VerdictEvidence } from './verdict-types.js';
import { brokenWords, incompleteWords, okWords } from './verdict-words.js';

export type VerdictInput = Omit<DiagnosisReport, 'verdict' | 'exitCode'>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A broken verdict before it is worded. */
export type BrokenFacts = DistributiveOmit<BrokenVerdict, 'headline' | 'summary' | 'next'>;

/** The rows whose failure means the base URL does not lead to the API (not `/`: it decides nothing). */
const BASE_ROWS: ReadonlySet<string> = new Set(['base-path', 'host', 'path']);

const UNREACHABLE_CODES: Readonly<Record<string, Unreachable>> = {
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
  };
}

/** No HTTP answer: a timeout, a host that cannot be reached, or an answer cut short. */
function noAnswerFacts(failure: TransportFailure, evidence: VerdictEvidence, input: VerdictInput): BrokenFacts {
  if (failure.kind === 'timeout') return { kind: 'timeout', evidence, phase: failure.phase, timeoutS: input.timeoutS };
  if (failure.kind === 'tls') return { kind: 'host_unreachable', evidence, how: 'tls', code: failure.code };
  const how = failure.kind === 'connection' ? UNREACHABLE_CODES[failure.code] : undefined;
  if (failure.kind === 'connection' && how !== undefined) return { kind: 'host_unreachable', evidence, how, code: failure.code };
  return { kind: 'no_answer', evidence, code: failure.kind === 'connection' ? failure.code : failure.kind };
}

/** The facts of the first failing row, keyed by the cause the checklist core read from its answer. */
export function brokenFacts(row: DiagnosisRow, input: VerdictInput): BrokenFacts {
  const evidence = evidenceOf(row);
  const f = row.finding;
  if (f.kind === 'base_path_wrong') return { kind: 'not_api', evidence, reason: 'base_path', status: undefined };
  if (f.kind === 'header_forms_differ') return { kind: 'header_forms_differ', evidence };
  const cause = row.cause;
  if (cause === undefined) throw new Error(`failing row ${row.check} has no cause`);
  switch (cause.kind) {
    case 'rate_limited': {
      const stop = input.traffic.stopped;
      const retryAfterS = f.kind === 'rate_limited' ? f.retryAfterS : undefined;
      const stopped = stop?.kind === 'rate_limited' ? stop.why : undefined;
      return { kind: 'rate_limited', evidence, retryAfterS, stopped, notRun: input.traffic.notRun.length, keyed: row.request?.auth !== 'none' };
    }
    case 'server_error':
      return { kind: 'server_error', evidence, status: cause.status, html: cause.html, code: cause.code };
    case 'no_answer':
      return noAnswerFacts(cause.failure, evidence, input);
    case 'not_api':
      return { kind: 'not_api', evidence, reason: cause.html ? 'html_page' : cause.status === 404 ? 'not_found' : 'not_envelope', status: cause.status };
    case 'redirect':
      return { kind: 'not_api', evidence, reason: 'redirect', status: cause.status };
    case 'key_rejected':
      return { kind: 'key_rejected', evidence, status: cause.status, code: cause.code, testKeyOnProduction: f.kind === 'key_rejected' && f.testKeyOnProduction };
    case 'tenant_mismatch':
      return { kind: 'tenant_mismatch', evidence, urlTenant: f.kind === 'tenant_mismatch' ? f.urlTenant : (input.tenant.probed ?? '?'), keyTenant: input.tenant.keyTenant };
    case 'scope_missing':
      return { kind: 'scope_missing', evidence, resource: f.kind === 'scope_missing' ? f.resource : undefined, readable: f.kind === 'scope_missing' ? f.readable : [] };
    case 'refused':
      return { kind: 'refused', evidence, status: cause.status, code: cause.code };
    case 'client_error':
      if (BASE_ROWS.has(row.check)) return { kind: 'not_api', evidence, reason: 'not_found', status: cause.status };
      return { kind: cause.status === 404 ? 'not_found' : 'client_error', evidence, status: cause.status, code: cause.code };
    case 'ok':
    case 'not_checked':
      throw new Error(`failing row ${row.check} has cause ${cause.kind}`);
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
    return { ...facts, ...brokenWords(facts, broken, input) } as BrokenVerdict;
  }
  const key = input.checks.find((r) => r.check === 'key');
  if (key?.status !== 'pass') {
    const facts = { kind: 'incomplete' as const, reason: incompleteReason(input), keyKind: input.key.kind, notChecked: input.checks.filter((r) => r.status === 'skip').map((r) => r.check) };
    return { ...facts, ...incompleteWords(facts, input) };
  }
  return { kind: 'ok', ...okWords(input) };
}
