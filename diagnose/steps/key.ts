/**
 * Step 2: key accepted, by the checklist core on the tenant paths; `/platform/<sub>` tells a
 * platform key from a tenant key, since no endpoint names a key's kind.
 */
import { causeOf } from '../../api/checklist/index.js';
import { type AttemptResult, answerKind } from '../../api/client/single-attempt.js';
import { unlistedNotFound } from '../observations.js';
import type { DiagnosisRow } from '../types.js';
import { type KeyKindGuess, type StepContext, answerFinding, checklistRow, makeRow, notRunBecause, notRunRow } from './context.js';

/**
 * What a /platform/ answer says of the key: data means a platform key; a refusal (403 with
 * whatever code, or 401 once the tenant paths accepted the key) a tenant key. A 404 only on a
 * path /docs lists: there it hides the path from a tenant key (READING: PLATFORM_REFUSALS
 * `not_found`), on a path given by hand it is as likely a wrong path (`why`). A rejected key
 * tells nothing.
 */
function platformAnswer(ctx: StepContext, sub: string, result: AttemptResult): { readonly kind: KeyKindGuess; readonly why?: string } {
  if (result.kind !== 'response') return { kind: 'unknown' };
  const c = result.classification;
  if (c.kind === 'ok') return { kind: 'platform' };
  const why = unlistedNotFound(sub, result, ctx.platformPathsListed);
  if (why !== undefined) return { kind: 'unknown', why };
  const keyWorks = ctx.checklist.find((r) => r.id === 'key')?.status === 'pass';
  if (c.kind === 'forbidden' || c.kind === 'not_found') return { kind: 'tenant' };
  if (c.kind === 'unauthorized' && keyWorks) return { kind: 'tenant' };
  return { kind: 'unknown' };
}

export function keyKindOf(ctx: StepContext): KeyKindGuess {
  for (const sub of ctx.platformPaths) {
    const result = ctx.observations.get(`platform:${sub}`)?.result;
    const kind = result === undefined ? 'unknown' : platformAnswer(ctx, sub, result).kind;
    if (kind !== 'unknown') return kind;
  }
  return 'unknown';
}

function platformRow(ctx: StepContext, sub: string): DiagnosisRow {
  const check = `platform:${sub}`;
  const record = ctx.observations.get(check);
  const title = `key kind via GET /platform/${sub}`;
  if (!record?.result) return notRunRow('key', check, title, notRunBecause(ctx, 'the host did not answer'), record);
  const result = record.result;
  const answer = platformAnswer(ctx, sub, result);
  if (answer.kind !== 'unknown') return makeRow('key', check, title, 'pass', { kind: 'key_kind', keyKind: answer.kind }, record);
  if (answer.why !== undefined) return makeRow('key', check, title, 'warn', { kind: 'key_kind_unknown', why: answer.why }, record);
  if (answerKind(result) === 'unauthorized') return notRunRow('key', check, title, 'key not accepted', record);
  return makeRow('key', check, title, 'fail', answerFinding({ ...record, result }, ctx), record);
}

/**
 * What the key row says when it passes: a refusal the API gives only to a key it knows (another
 * tenant's, a narrow scope) proves the key valid, and must not read as "accepted" beside a 403.
 */
function keyPassNote(ctx: StepContext): string {
  const evidence = ctx.checklist.find((r) => r.id === 'key')?.evidence;
  const result = evidence === undefined || evidence === 'docs' ? undefined : ctx.observations.get(`scope:${evidence}`)?.result;
  const cause = result === undefined ? undefined : causeOf(result);
  if (cause === undefined || cause.kind === 'ok') return 'the API accepts the key';
  const code = 'code' in cause ? ` ${cause.code}` : '';
  const where =
    cause.kind === 'tenant_mismatch' ? 'the tenant, not the key (see tenant)' : `${evidence}, not the key (see scope:${evidence})`;
  return `the key is valid: the API gives HTTP ${'status' in cause ? cause.status : '?'}${code} only to a key it knows, refusing ${where}`;
}

export function keyStep(ctx: StepContext): DiagnosisRow[] {
  return [
    checklistRow(ctx, 'key', 'key', `key accepted on the tenant paths (${ctx.auth})`, keyPassNote(ctx)),
    ...ctx.platformPaths.map((sub) => platformRow(ctx, sub)),
  ];
}
