/** What every pure step reads: the run's settings, the calls' observations and the checklist's rows. */
import type { ChecklistRow, ChecklistRowId } from '../../api/checklist/index.js';
import type { AuthScheme, Environment, KeyKind, TenantResource } from '../../api/contract/index.js';
import type { FindingContext, Observations, CallRecord } from '../observe.js';
import { checkRequest, findingFromCause, observedColumns } from '../observe.js';
import type { DiagnosisTarget } from '../target.js';
import { explainFinding, explainStop } from '../explain.js';
import type { DiagnosisRow, DiagnosisStatus, DiagnosisTraffic, Finding, StepId, TenantGuess, TenantSource } from '../types.js';

export interface StepContext {
  readonly target: DiagnosisTarget;
  readonly auth: AuthScheme;
  readonly keyEnvironment: Environment | undefined;
  readonly platformPaths: readonly string[];
  /** The tenant the resource calls used: the URL's, else --tenant, else inferred. */
  readonly probedTenant: string | undefined;
  /** How the probed tenant was chosen, for the explanation. */
  readonly tenantSource: TenantSource;
  /** Tenants /docs named that were tried with the key, in order. */
  readonly guesses: readonly TenantGuess[];
  /** --tenant when the URL names a different one: the tenant the key is said to belong to. */
  readonly keyTenant: string | undefined;
  readonly findingContext: FindingContext;
  readonly observations: Observations;
  /** The shared checklist core's rows for these observations (host, path, key, tenant, scopes). */
  readonly checklist: readonly ChecklistRow[];
  readonly traffic: DiagnosisTraffic;
}

export function recordOf(ctx: StepContext, id: string): CallRecord | undefined {
  return ctx.observations.get(id);
}

export function makeRow(step: StepId, check: string, title: string, status: DiagnosisStatus, finding: Finding, record?: CallRecord): DiagnosisRow {
  return { step, check, title, status, finding, ...(record ? observedColumns(record) : {}), explanation: explainFinding(finding) };
}

export function notRunRow(step: StepId, check: string, title: string, because: string, record?: CallRecord): DiagnosisRow {
  const finding: Finding = { kind: 'not_run', because };
  return { step, check, title, status: 'skip', finding, ...(record ? { request: checkRequest(record) } : {}), explanation: explainFinding(finding) };
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

/** Learned from /platform/*: ok means platform key, platform_key_required means tenant key. */
export type KeyKindGuess = KeyKind | 'unknown';

/** The call a checklist row was decided on, as this probe recorded it. */
function evidenceRecord(ctx: StepContext, row: ChecklistRow): CallRecord | undefined {
  if (row.evidence === undefined) return undefined;
  return recordOf(ctx, row.evidence === 'docs' ? 'docs' : `scope:${row.evidence}`);
}

/**
 * A row of the shared checklist core as a diagnosis row: its status and its cause are the
 * core's, so the probe and a project's `npm run check` cannot tell one key two stories. Only
 * the wording is the probe's (a passing note, the tenants and environment it knows of).
 */
export function checklistRow(ctx: StepContext, id: ChecklistRowId, step: StepId, title: string, passNote?: string): DiagnosisRow {
  const row = ctx.checklist.find((r) => r.id === id);
  if (!row) throw new Error(`the checklist has no row ${id}`);
  const record = evidenceRecord(ctx, row);
  const resource = id.startsWith('scope:') ? (id.slice('scope:'.length) as TenantResource) : undefined;
  const finding: Finding = row.status === 'pass' ? { kind: 'ok', note: passNote ?? row.detail } : findingFromCause(row.cause, ctx.findingContext, resource, record?.retryHint);
  if (row.status === 'skip' && !record) {
    const because = row.cause.kind === 'not_checked' ? row.cause.because : row.detail;
    return notRunRow(step, id, title, leftUnsent(ctx, id) ? notRunBecause(ctx, because) : because, recordOf(ctx, id));
  }
  return { ...makeRow(step, id, title, row.status, finding, record), cause: row.cause };
}
