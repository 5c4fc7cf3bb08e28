/**
 * Step 2: key accepted, by the checklist core on the tenant paths (which the spec says need a
 * key); `/platform/<sub>` tells a platform key from a tenant key, since the API has no
 * endpoint that names a key's kind.
 */
import { ERROR_CODES } from '../../api/contract/index.js';
import { findingOf } from '../observe.js';
import type { DiagnosisRow } from '../types.js';
import { type KeyKindGuess, type StepContext, checklistRow, makeRow, notRunRow, recordOf } from './context.js';

export function keyKindOf(ctx: StepContext): KeyKindGuess {
  const first = ctx.platformPaths[0];
  const result = first === undefined ? undefined : recordOf(ctx, `platform:${first}`)?.result;
  if (result?.kind !== 'response') return 'unknown';
  if (result.classification.kind === 'ok') return 'platform';
  const c = result.classification;
  if (c.kind === 'forbidden' && c.code === ERROR_CODES.platformKeyRequired) return 'tenant';
  return 'unknown';
}

function platformRow(ctx: StepContext, sub: string): DiagnosisRow {
  const check = `platform:${sub}`;
  const record = recordOf(ctx, check);
  const title = `key kind via GET /platform/${sub}`;
  if (!record?.result) return notRunRow('key', check, title, 'the host did not answer', record);
  const result = record.result;
  if (result.kind === 'response') {
    const c = result.classification;
    if (c.kind === 'ok') return makeRow('key', check, title, 'pass', { kind: 'key_kind', keyKind: 'platform' }, record);
    if (c.kind === 'forbidden' && c.code === ERROR_CODES.platformKeyRequired) {
      return makeRow('key', check, title, 'pass', { kind: 'key_kind', keyKind: 'tenant' }, record);
    }
    // The platform sub-paths are an assumption; a 404 says this server has no such sub-path.
    if (c.kind === 'client_error' && c.code === ERROR_CODES.notFound) {
      return makeRow('key', check, title, 'warn', { kind: 'not_found', status: result.status }, record);
    }
  }
  return makeRow('key', check, title, 'fail', findingOf(result, ctx.findingContext), record);
}

export function keyStep(ctx: StepContext): DiagnosisRow[] {
  return [checklistRow(ctx, 'key', 'key', `key accepted on the tenant paths (${ctx.auth})`, 'the API accepts the key'), ...ctx.platformPaths.map((sub) => platformRow(ctx, sub))];
}
