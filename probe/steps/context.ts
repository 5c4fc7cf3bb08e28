/** What every pure step reads: the run's settings and the calls' observations. */
import type { AuthScheme, Environment, KeyKind } from '../../templates/app/src/contract/index.js';
import type { FindingContext, Observations, CallRecord } from '../observe.js';
import { checkRequest, observedColumns } from '../observe.js';
import type { ProbeTarget } from '../target.js';
import { explainFinding } from '../explain.js';
import type { CheckRow, CheckStatus, Finding, StepId } from '../types.js';

export interface StepContext {
  readonly target: ProbeTarget;
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
}

export function recordOf(ctx: StepContext, id: string): CallRecord | undefined {
  return ctx.observations.get(id);
}

export function makeRow(step: StepId, check: string, title: string, status: CheckStatus, finding: Finding, record?: CallRecord): CheckRow {
  return { step, check, title, status, finding, ...(record ? observedColumns(record) : {}), explanation: explainFinding(finding) };
}

export function notRunRow(step: StepId, check: string, title: string, because: string, record?: CallRecord): CheckRow {
  const finding: Finding = { kind: 'not_run', because };
  return { step, check, title, status: 'skip', finding, ...(record ? { request: checkRequest(record) } : {}), explanation: explainFinding(finding) };
}

/** Learned from /platform/*: ok means platform key, platform_key_required means tenant key. */
export type KeyKindGuess = KeyKind | 'unknown';
