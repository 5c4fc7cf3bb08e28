/** What every pure step reads: the run's settings, the calls' observations and the checklist's rows. */
import type { ChecklistRow, ChecklistRowId } from '../../api/checklist/index.js';
import type { AuthScheme, Environment, KeyKind, TenantResource } from '../../api/contract/index.js';
import type { FindingContext, Observations, CallRecord } from '../observe.js';
import { checkRequest, findingFromCause, observedColumns } from '../observe.js';
import type { DiagnosisTarget } from '../target.js';
import { explainFinding } from '../explain.js';
import type { DiagnosisRow, DiagnosisStatus, Finding, StepId } from '../types.js';

export interface StepContext {
  readonly target: DiagnosisTarget;
  readonly auth: AuthScheme;
  readonly keyEnvironment: Environment | undefined;
  readonly platformPaths: readonly string[];
  /** The tenant the resource calls used: the URL's, else --tenant, else inferred. */
  readonly probedTenant: string | undefined;
  /** How the probed tenant was chosen, for the explanation. */
  readonly tenantSource: 'url' | 'flag' | 'inferred' | 'none';
  /** --tenant when the URL names a different one: the tenant the key is said to belong to. */
  readonly keyTenant: string | undefined;
  readonly findingContext: FindingContext;
  readonly observations: Observations;
  /** The shared checklist core's rows for these observations (host, path, key, tenant, scopes). */
  readonly checklist: readonly ChecklistRow[];
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
  const finding: Finding = row.status === 'pass' ? { kind: 'ok', note: passNote ?? row.detail } : findingFromCause(row.cause, ctx.findingContext, resource);
  if (row.status === 'skip' && !record) return notRunRow(step, id, title, row.cause.kind === 'not_checked' ? row.cause.because : row.detail);
  return makeRow(step, id, title, row.status, finding, record);
}
