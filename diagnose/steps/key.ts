/**
 * Step 2: key accepted, by the checklist core on the tenant paths (which the spec says need a
 * key); `/platform/<sub>` tells a platform key from a tenant key, since the API has no
 * endpoint that names a key's kind.
 */
import type { AttemptResult } from '../../api/client/single-attempt.js';
import { findingOf } from '../observe.js';
import type { DiagnosisRow } from '../types.js';
import { type KeyKindGuess, type StepContext, checklistRow, makeRow, notRunBecause, notRunRow, recordOf } from './context.js';

/**
 * What a /platform/ answer says of the key. The path was configured or listed by /docs, so it
 * exists: data means a platform key; any refusal (403 with whatever code, or a 404 that hides
 * the path, READING: what a tenant key gets there is not shown) means a tenant key, provided
 * the tenant paths accepted the key. A rejected key tells nothing.
 */
function platformAnswer(ctx: StepContext, result: AttemptResult): KeyKindGuess {
  if (result.kind !== 'response') return 'unknown';
  const c = result.classification;
  if (c.kind === 'ok') return 'platform';
  const keyWorks = ctx.checklist.find((r) => r.id === 'key')?.status === 'pass';
  if (c.kind === 'forbidden' || c.kind === 'not_found') return 'tenant';
  if (c.kind === 'unauthorized' && keyWorks) return 'tenant';
  return 'unknown';
}

export function keyKindOf(ctx: StepContext): KeyKindGuess {
  for (const sub of ctx.platformPaths) {
    const result = recordOf(ctx, `platform:${sub}`)?.result;
    const kind = result === undefined ? 'unknown' : platformAnswer(ctx, result);
    if (kind !== 'unknown') return kind;
  }
  return 'unknown';
}

function platformRow(ctx: StepContext, sub: string): DiagnosisRow {
  const check = `platform:${sub}`;
  const record = recordOf(ctx, check);
  const title = `key kind via GET /platform/${sub}`;
  if (!record?.result) return notRunRow('key', check, title, notRunBecause(ctx, 'the host did not answer'), record);
  const result = record.result;
  const kind = platformAnswer(ctx, result);
  if (kind !== 'unknown') return makeRow('key', check, title, 'pass', { kind: 'key_kind', keyKind: kind }, record);
  return makeRow('key', check, title, 'fail', findingOf({ ...record, result }, ctx.findingContext), record);
}

export function keyStep(ctx: StepContext): DiagnosisRow[] {
  return [checklistRow(ctx, 'key', 'key', `key accepted on the tenant paths (${ctx.auth})`, 'the API accepts the key'), ...ctx.platformPaths.map((sub) => platformRow(ctx, sub))];
}
