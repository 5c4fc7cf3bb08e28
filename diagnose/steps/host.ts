/**
 * Step 1: the base path's shape, the checklist core's host and path rows, then `/` for
 * information (the spec does not say whether it needs a key, so any envelope will do).
 */
import { BASE_PATH } from '../../api/contract/index.js';
import type { AttemptResult } from '../../api/client/single-attempt.js';
import { endsWithVersion } from '../target.js';
import type { DiagnosisRow, Finding } from '../types.js';
import { type StepContext, answerFinding, checklistRow, makeRow, notRunBecause, notRunRow } from './context.js';

/**
 * Whether the API v1 itself answered at this path: a valid envelope that is not a 404
 * (no such path), a redirect, a 429 or a 5xx. A 401 or 403 still proves the path is right.
 */
function answeredByApi(result: AttemptResult): boolean {
  if (result.kind === 'failure' || !result.envelope.valid) return false;
  const s = result.status;
  return s < 500 && s !== 429 && s !== 404 && !(s >= 300 && s < 400);
}

function indexRow(ctx: StepContext): DiagnosisRow {
  const title = 'GET / answers with an envelope';
  const record = ctx.observations.get('index');
  if (!record?.result) return notRunRow('host', 'index', title, notRunBecause(ctx, 'the host did not answer'), record);
  const result = record.result;
  if (answeredByApi(result)) {
    const note = `the API answered with a valid envelope (HTTP ${result.kind === 'response' ? result.status : '?'})`;
    return makeRow('host', 'index', title, 'pass', { kind: 'ok', note }, record);
  }
  return makeRow('host', 'index', title, 'fail', answerFinding({ ...record, result }, ctx), record);
}

export function hostStep(ctx: StepContext): DiagnosisRow[] {
  const pathFinding: Finding = endsWithVersion(ctx.target)
    ? { kind: 'ok', note: `the base path ${ctx.target.basePath} ends in ${BASE_PATH}` }
    : { kind: 'base_path_wrong', path: ctx.target.basePath };
  return [
    makeRow('host', 'base-path', `base URL ends in ${BASE_PATH}`, pathFinding.kind === 'ok' ? 'pass' : 'fail', pathFinding),
    checklistRow(ctx, 'host', 'host', 'host answers'),
    checklistRow(ctx, 'path', 'host', 'the base path answers with the API envelope', 'the base path leads to the API (a valid envelope)'),
    indexRow(ctx),
  ];
}
