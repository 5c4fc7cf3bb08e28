/** Turns the observations into the report: rows in checklist order, curl lines, verdict, exit code. */
import type { AuthScheme, Environment } from '../templates/app/src/contract/index.js';
import { curlLine } from './curl.js';
import type { Observations } from './observe.js';
import { type ProbeTarget, looksLikeProduction } from './target.js';
import { hostStep } from './steps/host.js';
import { keyKindOf, keyStep } from './steps/key.js';
import { scopeStep, tenantStep } from './steps/tenant.js';
import { headersStep } from './steps/headers.js';
import type { StepContext } from './steps/context.js';
import { type CheckRow, type ProbeReport, STEPS, STEP_TITLES, type Verdict } from './types.js';

export interface ReportInput {
  readonly target: ProbeTarget;
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

function withCurl(row: CheckRow, timeoutS: number): CheckRow {
  if (row.status !== 'fail' || !row.request || (row.httpStatus === undefined && row.latencyMs === undefined)) return row;
  return { ...row, curl: curlLine({ ...row.request, timeoutS }) };
}

/**
 * The explanation stops at the first broken step: a later failure with the same kind of
 * finding is that failure seen again, so it points back instead of explaining twice.
 */
function markConsequences(rows: readonly CheckRow[]): CheckRow[] {
  const first = rows.find((r) => r.status === 'fail');
  if (!first) return [...rows];
  const firstStep = STEPS.indexOf(first.step);
  return rows.map((row) => {
    if (row.status !== 'fail' || row.check === 'rate-limit' || STEPS.indexOf(row.step) <= firstStep) return row;
    if (row.finding.kind !== first.finding.kind) return row;
    return { ...row, consequenceOf: first.check, explanation: `same cause as ${first.check} (step ${firstStep + 1}, ${STEP_TITLES[first.step]})` };
  });
}

function okSummary(report: Omit<ProbeReport, 'verdict' | 'exitCode'>): string {
  const readable = report.checks.filter((r) => r.step === 'scope' && r.status === 'pass').map((r) => r.check.slice('scope:'.length));
  const skipped = report.checks.filter((r) => r.status === 'skip').map((r) => r.check);
  const kind = report.key.kind === 'unknown' ? 'key' : `${report.key.kind} key`;
  const reads = report.tenant.probed === undefined ? '' : `; reads ${readable.join(', ')} of tenant ${report.tenant.probed}`;
  const rest = skipped.length > 0 ? ` (not checked: ${skipped.join(', ')})` : '';
  return `OK: ${kind} ${report.key.hint} works against ${report.baseUrl}${reads}${rest}`;
}

function verdictOf(report: Omit<ProbeReport, 'verdict' | 'exitCode'>): Verdict {
  const broken = report.checks.find((r) => r.status === 'fail');
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

export function buildReport(input: ReportInput): ProbeReport {
  const ctx: StepContext = {
    target: input.target,
    auth: input.auth,
    keyEnvironment: input.keyEnvironment,
    platformPaths: input.platformPaths,
    probedTenant: input.probedTenant,
    tenantSource: input.tenantSource,
    keyTenant: input.keyTenant,
    observations: input.observations,
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
