/** Turns the observations into the report: rows in checklist order, curl lines, verdict, exit code. */
import { type ChecklistObservations, evaluateChecklist } from '../api/checklist/index.js';
import type { AttemptResult } from '../api/client/single-attempt.js';
import { type AuthScheme, type Environment, TENANT_RESOURCES, type TenantResource } from '../api/contract/index.js';
import { curlLine } from './curl.js';
import type { Observations } from './observe.js';
import { type DiagnosisTarget, looksLikeProduction } from './target.js';
import { hostStep } from './steps/host.js';
import { keyKindOf, keyStep } from './steps/key.js';
import { scopeStep, tenantStep } from './steps/tenant.js';
import { headersStep } from './steps/headers.js';
import type { StepContext } from './steps/context.js';
import { type DiagnosisRow, type DiagnosisReport, STEPS, STEP_TITLES, type DiagnosisVerdict } from './types.js';

export interface ReportInput {
  readonly target: DiagnosisTarget;
  readonly auth: AuthScheme;
  readonly keyHint: string;
  readonly keyEnvironment: Environment | undefined;
  readonly platformPaths: readonly string[];
  readonly probedTenant: string | undefined;
  readonly tenantSource: StepContext['tenantSource'];
  readonly keyTenant: string | undefined;
  readonly timeoutS: number;
  readonly observations: Observations;
}

function withCurl(row: DiagnosisRow, timeoutS: number): DiagnosisRow {
  if (row.status !== 'fail' || !row.request || (row.httpStatus === undefined && row.latencyMs === undefined)) return row;
  return { ...row, curl: curlLine({ ...row.request, timeoutS }) };
}

/**
 * The explanation stops at the first broken step: a later failure with the same kind of
 * finding is that failure seen again, so it points back instead of explaining twice.
 */
function markConsequences(rows: readonly DiagnosisRow[]): DiagnosisRow[] {
  const first = rows.find((r) => r.status === 'fail');
  if (!first) return [...rows];
  const firstStep = STEPS.indexOf(first.step);
  return rows.map((row) => {
    if (row.status !== 'fail' || row.check === 'rate-limit' || STEPS.indexOf(row.step) <= firstStep) return row;
    if (row.finding.kind !== first.finding.kind) return row;
    return { ...row, consequenceOf: first.check, explanation: `same cause as ${first.check} (step ${firstStep + 1}, ${STEP_TITLES[first.step]})` };
  });
}

function okSummary(report: Omit<DiagnosisReport, 'verdict' | 'exitCode'>): string {
  const readable = report.checks.filter((r) => r.step === 'scope' && r.status === 'pass').map((r) => r.check.slice('scope:'.length));
  const skipped = report.checks.filter((r) => r.status === 'skip').map((r) => r.check);
  const kind = report.key.kind === 'unknown' ? 'key' : `${report.key.kind} key`;
  const reads = report.tenant.probed === undefined ? '' : `; reads ${readable.join(', ')} of tenant ${report.tenant.probed}`;
  const rest = skipped.length > 0 ? ` (not checked: ${skipped.join(', ')})` : '';
  return `OK: ${kind} ${report.key.hint} works against ${report.baseUrl}${reads}${rest}`;
}

function verdictOf(report: Omit<DiagnosisReport, 'verdict' | 'exitCode'>): DiagnosisVerdict {
  const broken = report.checks.find((r) => r.status === 'fail');
  const key = report.checks.find((r) => r.check === 'key');
  if (!broken && key?.status !== 'pass') {
    return { kind: 'incomplete', summary: `NOT CHECKED: key ${report.key.hint} was not tried on a tenant path, so whether it works, and its tenant and scope, are unknown; pass --tenant SLUG` };
  }
  if (!broken) return { kind: 'ok', summary: okSummary(report) };
  const stepNumber = STEPS.indexOf(broken.step) + 1;
  const code = broken.errorCode ? ` ${broken.errorCode}` : '';
  const status = broken.httpStatus !== undefined ? ` (HTTP ${broken.httpStatus}${code})` : '';
  return {
    kind: 'broken',
    step: broken.step,
    stepNumber,
    check: broken.check,
    summary: `BROKEN at step ${stepNumber} (${STEP_TITLES[broken.step]}): check "${broken.title}" failed${status}: ${broken.explanation}`,
  };
}

/** The checklist core reads the same calls: /docs and the tenant resources. */
function checklistObservations(observations: Observations): ChecklistObservations {
  const resources: Partial<Record<TenantResource, AttemptResult>> = {};
  for (const resource of TENANT_RESOURCES) {
    const result = observations.get(`scope:${resource}`)?.result;
    if (result) resources[resource] = result;
  }
  return { docs: observations.get('docs')?.result, resources };
}

export function buildReport(input: ReportInput): DiagnosisReport {
  const checklist = evaluateChecklist({ baseUrl: input.target.baseUrl, tenant: input.probedTenant, observations: checklistObservations(input.observations) });
  const ctx: StepContext = {
    target: input.target,
    auth: input.auth,
    keyEnvironment: input.keyEnvironment,
    platformPaths: input.platformPaths,
    probedTenant: input.probedTenant,
    tenantSource: input.tenantSource,
    keyTenant: input.keyTenant,
    observations: input.observations,
    checklist,
    findingContext: {
      testKeyOnProduction: input.keyEnvironment === 'test' && looksLikeProduction(input.target.hostname),
      probedTenant: input.probedTenant,
      keyTenant: input.keyTenant,
    },
  };
  const keyKind = keyKindOf(ctx);
  const rows = [...hostStep(ctx), ...keyStep(ctx), ...tenantStep(ctx, keyKind), ...scopeStep(ctx), ...headersStep(ctx)];
  const partial = {
    tool: 'repairmon probe' as const,
    baseUrl: input.target.baseUrl,
    auth: input.auth,
    key: { hint: input.keyHint, environment: input.keyEnvironment ?? ('unknown' as const), kind: keyKind },
    tenant: { probed: input.probedTenant, urlTenant: input.target.urlTenant, keyTenant: input.keyTenant },
    checks: markConsequences(rows.map((row) => withCurl(row, input.timeoutS))),
  };
  const verdict = verdictOf(partial);
  return { ...partial, verdict, exitCode: verdict.kind === 'ok' ? 0 : 1 };
}
