/** Step 1: host and path. The base path, then `/docs` (public) and `/` answering with envelopes. */
import { BASE_PATH } from '../../templates/app/src/contract/index.js';
import { answeredByApi, findingOf, type CallRecord } from '../observe.js';
import { endsWithVersion } from '../target.js';
import type { CheckRow, Finding } from '../types.js';
import { type StepContext, makeRow, notRunRow, recordOf } from './context.js';

/** `/docs` is public, so only a success will do; `/` may refuse the key and still prove the path. */
function envelopeRow(ctx: StepContext, record: CallRecord | undefined, check: string, title: string, needsOk: boolean): CheckRow {
  if (!record?.result) return notRunRow('host', check, title, 'the host did not answer', record);
  const result = record.result;
  const passes = needsOk ? result.kind === 'response' && result.classification.kind === 'ok' : answeredByApi(result);
  if (passes) {
    const note = `the API answered with a valid envelope (HTTP ${result.kind === 'response' ? result.status : '?'})`;
    return makeRow('host', check, title, 'pass', { kind: 'ok', note }, record);
  }
  let finding = findingOf(result, ctx.findingContext);
  // A 401 on public /docs is the server's fault, not the key's.
  if (finding.kind === 'key_rejected' && result.kind === 'response') finding = { kind: 'unexpected', status: result.status, code: 'unauthorized' };
  return makeRow('host', check, title, 'fail', finding, record);
}

export function hostStep(ctx: StepContext): CheckRow[] {
  const pathFinding: Finding = endsWithVersion(ctx.target)
    ? { kind: 'ok', note: `the base path ${ctx.target.basePath} ends in ${BASE_PATH}` }
    : { kind: 'base_path_wrong', path: ctx.target.basePath };
  return [
    makeRow('host', 'base-path', `base URL ends in ${BASE_PATH}`, pathFinding.kind === 'ok' ? 'pass' : 'fail', pathFinding),
    envelopeRow(ctx, recordOf(ctx, 'docs'), 'docs', 'GET /docs (public) answers', true),
    envelopeRow(ctx, recordOf(ctx, 'index'), 'index', 'GET / answers with an envelope', false),
  ];
}
