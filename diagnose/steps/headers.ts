/**
 * Step 5: both ways of presenting the key give the same answer, and what the rate limiter
 * says (headers on any answer, a 429 with its Retry-After).
 */
import { otherScheme } from '../../api/contract/index.js';
import { type AttemptResult, answerKind } from '../../api/client/single-attempt.js';
import { answered } from '../observations.js';
import { OTHER_HEADER_CALL_ID } from '../plan.js';
import type { DiagnosisRow, Finding } from '../types.js';
import { type StepContext, answerFinding, makeRow, notRunBecause, notRunRow, rateLimitOf } from './context.js';

function answerOf(result: AttemptResult): string {
  if (result.kind === 'failure') return result.failure.kind;
  const c = result.classification;
  return 'code' in c && c.code !== undefined ? `${result.status} ${c.code}` : String(result.status);
}

/** Answers that say nothing of how the key was sent: a 429 is the limiter's, a 5xx or no answer the server's. */
function saysNothingOfTheKey(result: AttemptResult): boolean {
  const kind = answerKind(result);
  return result.kind === 'failure' || kind === 'rate_limited' || kind === 'server_error';
}

function headerFormsRow(ctx: StepContext): DiagnosisRow {
  const other = otherScheme(ctx.auth);
  const title = `${ctx.auth} and ${other} give the same answer`;
  const primary = ctx.observations.get('scope:clients');
  const second = ctx.observations.get(OTHER_HEADER_CALL_ID);
  const skip = (because: string): DiagnosisRow => notRunRow('headers', 'header-forms', title, because, second);
  const row = (status: 'pass' | 'fail', finding: Finding): DiagnosisRow =>
    makeRow('headers', 'header-forms', title, status, finding, second);
  if (!primary && !second) return notRunRow('headers', 'header-forms', title, 'compared on a tenant path; pass --tenant SLUG');
  if (!primary?.result || !second?.result) return skip(notRunBecause(ctx, 'the host did not answer'));
  const a = answerOf(primary.result);
  const b = answerOf(second.result);
  // A 429, a 5xx or no answer is never evidence that a header form is wrong (or right).
  const notCompared = (scheme: string, answer: string): DiagnosisRow =>
    skip(`not compared: ${scheme} got ${answer}, which says nothing of the header form`);
  if (saysNothingOfTheKey(primary.result)) return notCompared(ctx.auth, a);
  if (answerKind(second.result) === 'rate_limited') return notCompared(other, b);
  // The other form's own failure is reported as what it is (a timeout, a 502), not as a header problem.
  if (saysNothingOfTheKey(second.result)) return row('fail', answerFinding({ ...second, result: second.result }, ctx));
  if (a !== b) return row('fail', { kind: 'header_forms_differ', primary: `${ctx.auth}: ${a}`, other: `${other}: ${b}` });
  const notCause = primary.result.kind === 'response' && primary.result.status !== 200 ? ': the header form is not the cause' : '';
  return row('pass', { kind: 'ok', note: `both answer ${b}${notCause}` });
}

function rateLimitRow(ctx: StepContext): DiagnosisRow {
  const title = 'rate limits (429, Retry-After, RateLimit-*)';
  const records = answered(ctx.observations.values());
  const limited = records.find((r) => r.result.kind === 'response' && r.result.status === 429);
  if (limited) return makeRow('headers', 'rate-limit', title, 'fail', answerFinding(limited, ctx), limited);
  const withHeaders = records.filter((r) => r.result.kind === 'response' && rateLimitOf(r.result.headers) !== undefined).at(-1);
  const waited = waitNote(ctx);
  if (withHeaders?.result.kind === 'response') {
    const info = rateLimitOf(withHeaders.result.headers) ?? {};
    const note = `not limited; limit ${info.limit ?? '?'}, remaining ${info.remaining ?? '?'}, reset ${info.reset ?? '?'} s${waited}`;
    // Only the headers matter here; the call's own status and code belong to its own row.
    return { ...makeRow('headers', 'rate-limit', title, 'pass', { kind: 'ok', note }), rateLimit: info };
  }
  if (records.every((r) => r.result.kind === 'failure')) return notRunRow('headers', 'rate-limit', title, 'no answer to read headers from');
  if (waited !== '') return makeRow('headers', 'rate-limit', title, 'pass', { kind: 'ok', note: `not limited now${waited}` });
  // Limits are counted per key: with no answer for an accepted key there was nothing to count.
  if (ctx.checklist.find((r) => r.id === 'key')?.status !== 'pass')
    return notRunRow('headers', 'rate-limit', title, 'no call was answered for an accepted key, and limits are counted per key');
  return makeRow('headers', 'rate-limit', title, 'warn', { kind: 'no_rate_limit_headers' });
}

/** A 429 the probe waited out and retried is gone from the rows; say it happened. */
function waitNote(ctx: StepContext): string {
  const waits = ctx.traffic.waits.map((w) => `${Math.ceil(w.ms / 1000)} s before retrying ${w.check}`);
  return waits.length === 0 ? '' : `; a 429 came and the probe waited as the server asked: ${waits.join(', ')}`;
}

export function headersStep(ctx: StepContext): DiagnosisRow[] {
  return [headerFormsRow(ctx), rateLimitRow(ctx)];
}
