/** Turns the observations into the report: rows in checklist order, curl lines, what was spent, verdict, exit code. */
import { curlCommand, evaluateChecklist } from '../api/checklist/index.js';
import { platformPathsInDocs } from '../api/contract/readings.js';
import { okData } from './observations.js';
import { looksLikeProduction } from './target.js';
import { headersStep, hostStep, keyKindOf, keyStep, scopeStep, tenantStep } from './steps/checks.js';
import type { ReportInput } from './steps/context.js';
import { type DiagnosisRow, STEPS, STEP_TITLES } from './types.js';
import type { DiagnosisReport } from './verdict.js';
import { verdictOf } from './verdict-words.js';

export type { ReportInput };

/** The variable support is told to set: curl lines read the key from it, so it is never on screen. */
export const KEY_ENV_VAR = 'REPAIR_API_KEY';

/** Step 5 of the checklist: a failing call again with curl, with the probe's timeout. */
function withCurl(row: DiagnosisRow, timeoutS: number): DiagnosisRow {
  if (row.status !== 'fail' || !row.request || (row.httpStatus === undefined && row.latencyMs === undefined)) return row;
  return { ...row, curl: curlCommand({ url: row.request.url, auth: row.request.auth, keyVariable: KEY_ENV_VAR, timeoutS }) };
}

/** A later failure with the first one's kind of finding is that failure seen again: it points back, not explains twice. */
function markConsequences(rows: readonly DiagnosisRow[]): DiagnosisRow[] {
  const first = rows.find((r) => r.status === 'fail');
  if (!first) return [...rows];
  const firstStep = STEPS.indexOf(first.step);
  return rows.map((row) => {
    if (row.status !== 'fail' || row.check === 'rate-limit' || STEPS.indexOf(row.step) <= firstStep) return row;
    if (row.finding.kind !== first.finding.kind) return row;
    return {
      ...row,
      consequenceOf: first.check,
      explanation: `same cause as ${first.check} (step ${firstStep + 1}, ${STEP_TITLES[first.step]})`,
    };
  });
}

export function buildReport(input: ReportInput): DiagnosisReport {
  const checklist = evaluateChecklist({
    baseUrl: input.target.baseUrl,
    tenant: input.probedTenant,
    observations: input.observations,
  });
  const ctx = {
    ...input,
    platformPathsListed: platformPathsInDocs(okData(input.observations.get('docs')?.result)?.data),
    testKeyOnProduction: input.keyEnvironment === 'test' && looksLikeProduction(input.target.hostname),
    checklist,
  };
  const keyKind = keyKindOf(ctx);
  const rows = [...hostStep(ctx), ...keyStep(ctx), ...tenantStep(ctx, keyKind), ...scopeStep(ctx), ...headersStep(ctx)];
  const partial = {
    tool: 'repairmon probe' as const,
    baseUrl: input.target.baseUrl,
    auth: input.auth,
    key: { hint: input.keyHint, environment: input.keyEnvironment ?? ('unknown' as const), kind: keyKind },
    tenant: {
      probed: input.probedTenant,
      source: input.tenantSource,
      urlTenant: input.target.urlTenant,
      keyTenant: input.keyTenant,
      guessed: input.guesses,
    },
    timeoutS: input.timeoutS,
    checks: markConsequences(rows.map((row) => withCurl(row, input.timeoutS))),
    traffic: input.traffic,
  };
  const verdict = verdictOf(partial);
  return { ...partial, verdict, exitCode: verdict.kind === 'ok' ? 0 : 1 };
}
