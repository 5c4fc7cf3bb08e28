/**
 * What every pure step reads (the run's settings, the calls' observations, the checklist's
 * rows) and how a row is built from a recorded call: its observed columns and its finding.
 */
import { type ChecklistCause, type ChecklistRow, type ChecklistRowId, causeOf } from '../../api/checklist/index.js';
import type { AuthScheme, Environment, KeyKind, TenantResource } from '../../api/contract/index.js';
import { RATE_LIMIT_HEADERS, TENANT_RESOURCES } from '../../api/contract/index.js';
import type { RetryHint } from '../../api/client/single-attempt.js';
import { explainFinding, explainStop } from '../explain.js';
import { type CallRecord, type Observations } from '../engine.js';
import { type Answered, errorOf, isResponse, okData } from '../observations.js';
import type { TenantPlan } from '../schedule.js';
import type { DiagnosisTarget } from '../target.js';
import type { Traffic } from '../send.js';
import type { DiagnosisRow, Finding, RateLimitHeaders, StepId } from '../types.js';

/** What the report is built from: the run's settings and what its calls recorded. */
export type ReportInput = TenantPlan & {
  readonly target: DiagnosisTarget;
  readonly auth: AuthScheme;
  readonly keyHint: string;
  readonly keyEnvironment: Environment | undefined;
  readonly platformPaths: readonly string[];
  readonly timeoutS: number;
  readonly observations: Observations;
  readonly traffic: Traffic;
};

export type StepContext = ReportInput & {
  /** The /platform/ sub-paths /docs lists: a 404 on one of them hides it from a tenant key. */
  readonly platformPathsListed: readonly string[];
  readonly testKeyOnProduction: boolean;
  readonly checklist: readonly ChecklistRow[];
};

/** Learned from /platform/*: ok means platform key, a refusal (of a known key) tenant key. */
export type KeyKindGuess = KeyKind | 'unknown';

export function rateLimitOf(headers: Readonly<Record<string, string>>): RateLimitHeaders | undefined {
  const present = (['limit', 'remaining', 'reset', 'retryAfter'] as const).filter((f) => headers[RATE_LIMIT_HEADERS[f]] !== undefined);
  return present.length === 0 ? undefined : Object.fromEntries(present.map((f) => [f, headers[RATE_LIMIT_HEADERS[f]]]));
}

function requestOf(record: CallRecord): DiagnosisRow['request'] {
  return { method: 'GET', url: record.url, auth: record.call.auth };
}

/** The observed columns of a row: status, code, Polish message, latency, request id and trace id. */
function observedColumns(record: CallRecord): Partial<DiagnosisRow> {
  const result = record.result;
  const request = requestOf(record);
  if (result === undefined) return { request };
  const latencyMs = Math.round(result.timings.totalMs);
  if (!isResponse(result)) return { request, latencyMs, traceId: result.traceId };
  const error = errorOf(result);
  const rateLimit = rateLimitOf(result.headers);
  return {
    request,
    httpStatus: result.status,
    latencyMs,
    ...(error ? { errorCode: error.code, serverMessage: error.message } : {}),
    ...(result.requestId !== undefined ? { requestId: result.requestId } : {}),
    traceId: result.traceId,
    ...(rateLimit ? { rateLimit } : {}),
  };
}

/** The resources the key read: the scopes a missing one is told against. */
function readable(ctx: StepContext): TenantResource[] {
  return TENANT_RESOURCES.filter((r) => okData(ctx.observations.get(`scope:${r}`)?.result) !== undefined);
}

/** A checklist cause with what the probe knows around it: the tenants and environment meant, the 429's hint. */
function findingOf(cause: ChecklistCause, ctx: StepContext, resource?: TenantResource, hint?: RetryHint): Finding {
  switch (cause.kind) {
    case 'rate_limited':
      return { ...cause, retryAfterS: hint === undefined ? undefined : Math.ceil(hint.delayMs / 1000), hintSource: hint?.source };
    case 'unauthorized':
      return { ...cause, testKeyOnProduction: ctx.testKeyOnProduction };
    case 'tenant_mismatch':
      return { ...cause, urlTenant: ctx.probedTenant ?? '?', keyTenant: ctx.keyTenant };
    case 'insufficient_scope':
      return { ...cause, resource, readable: resource === undefined ? [] : readable(ctx) };
    default:
      return cause;
  }
}

/** The finding of a recorded answer, read by the checklist core. */
export function answerFinding(record: Answered, ctx: StepContext, resource?: TenantResource): Finding {
  return findingOf(causeOf(record.result), ctx, resource, record.retryHint);
}

export function makeRow(
  step: StepId,
  check: string,
  title: string,
  status: DiagnosisRow['status'],
  finding: Finding,
  record?: CallRecord,
): DiagnosisRow {
  return { step, check, title, status, finding, ...(record ? observedColumns(record) : {}), explanation: explainFinding(finding) };
}

/** A check that was not decided shows only why: no status, latency or request id of a call it did not read. */
export function notRunRow(step: StepId, check: string, title: string, because: string, record?: CallRecord): DiagnosisRow {
  const finding: Finding = { kind: 'not_checked', because };
  return {
    step,
    check,
    title,
    status: 'skip',
    finding,
    ...(record ? { request: requestOf(record) } : {}),
    explanation: explainFinding(finding),
  };
}

/** Why a call has no answer: the run stopped before it (and why), else the given reason. */
export function notRunBecause(ctx: StepContext, fallback: string): string {
  return ctx.traffic.stopped === undefined ? fallback : explainStop(ctx.traffic.stopped);
}

/** Whether the calls a checklist row is decided on were left unsent because the run stopped. */
function leftUnsent(ctx: StepContext, id: ChecklistRowId): boolean {
  const { stopped, notRun } = ctx.traffic;
  if (stopped === undefined) return false;
  if (id === 'host' || id === 'path') return notRun.includes('docs');
  if (id.startsWith('scope:')) return notRun.includes(id) || !ctx.observations.has(id);
  // Key and tenant are decided on any tenant path: unsent when none was answered.
  return ![...ctx.observations.values()].some((r) => r.result !== undefined && r.call.id.startsWith('scope:'));
}

/** A checklist core row as a diagnosis row: status and cause the core's (one story with `npm run check`), wording the probe's. */
export function checklistRow(ctx: StepContext, id: ChecklistRowId, step: StepId, title: string, passNote?: string): DiagnosisRow {
  const row = ctx.checklist.find((r) => r.id === id);
  if (!row) throw new Error(`the checklist has no row ${id}`);
  // The call the row was decided on, as this probe recorded it.
  const record = row.evidence && ctx.observations.get(row.evidence === 'docs' ? 'docs' : `scope:${row.evidence}`);
  const resource = id.startsWith('scope:') ? (id.slice('scope:'.length) as TenantResource) : undefined;
  if (row.status === 'skip') {
    // A call may have been made (a scope after a rejected key), but it decided nothing here.
    const because = row.cause.kind === 'not_checked' ? row.cause.because : row.detail;
    return notRunRow(
      step,
      id,
      title,
      !record && leftUnsent(ctx, id) ? notRunBecause(ctx, because) : because,
      record ?? ctx.observations.get(id),
    );
  }
  const finding: Finding =
    row.status === 'pass' ? { kind: 'ok', note: passNote ?? row.detail } : findingOf(row.cause, ctx, resource, record?.retryHint);
  return makeRow(step, id, title, row.status, finding, record);
}
