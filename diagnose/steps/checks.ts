/**
 * The checklist's steps as rows, in the spec's order: 1 host and path (the base path's shape,
 * the core's host and path rows, then `/` for information), 2 key accepted (and the key's kind
 * from `/platform/<sub>`, since no endpoint names it), 3 tenant, 4 scope, 5 header forms and
 * rate limits. The checklist core decides its rows; the probe words them.
 */
import { causeOf } from '../../api/checklist/index.js';
import { BASE_PATH, TENANT_RESOURCES, otherScheme } from '../../api/contract/index.js';
import { type AttemptResult, answerKind } from '../../api/client/single-attempt.js';
import { answered, unlistedNotFound } from '../observations.js';
import { OTHER_HEADER_CALL_ID } from '../plan.js';
import { endsWithVersion } from '../target.js';
import type { DiagnosisRow, Finding } from '../types.js';
import {
  type KeyKindGuess,
  type StepContext,
  answerFinding,
  checklistRow,
  makeRow,
  notRunBecause,
  notRunRow,
  rateLimitOf,
} from './context.js';

/** Whether API v1 itself answered: a valid envelope that is no 404, redirect, 429 or 5xx (a 401 or 403 proves the path). */
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

/**
 * /docs failing on the server's side (a proxy's HTML 502, a 503) stops none of the key's checks,
 * and the host row (the checklist's, as `npm run check` shows it) passes on any answer; support
 * should still see what the monitor pages on: a warning row of the probe's own, only then.
 */
function docsFailedRow(ctx: StepContext): DiagnosisRow[] {
  const record = ctx.observations.get('docs');
  const result = record?.result;
  if (result?.kind !== 'response' || result.status < 500) return [];
  const cause = causeOf(result);
  const html = 'html' in cause && cause.html;
  return [makeRow('host', 'docs', 'GET /docs answers', 'warn', { kind: 'docs_failed', status: result.status, html }, record)];
}

export function hostStep(ctx: StepContext): DiagnosisRow[] {
  const pathFinding: Finding = endsWithVersion(ctx.target)
    ? { kind: 'ok', note: `the base path ${ctx.target.basePath} ends in ${BASE_PATH}` }
    : { kind: 'base_path_wrong', path: ctx.target.basePath };
  return [
    makeRow('host', 'base-path', `base URL ends in ${BASE_PATH}`, pathFinding.kind === 'ok' ? 'pass' : 'fail', pathFinding),
    checklistRow(ctx, 'host', 'host', 'host answers'),
    ...docsFailedRow(ctx),
    checklistRow(ctx, 'path', 'host', 'the base path answers with the API envelope', 'the base path leads to the API (a valid envelope)'),
    indexRow(ctx),
  ];
}

/**
 * What a /platform/ answer says of the key: data a platform key, a refusal (403, or 401 once the
 * tenant paths accepted the key) a tenant key; a 404 only on a path /docs lists (`unlistedNotFound`).
 */
function platformAnswer(ctx: StepContext, sub: string, result: AttemptResult): { readonly kind: KeyKindGuess; readonly why?: string } {
  if (result.kind !== 'response') return { kind: 'unknown' };
  const c = result.classification;
  if (c.kind === 'ok') return { kind: 'platform' };
  const why = unlistedNotFound(sub, result, ctx.platformPathsListed);
  if (why !== undefined) return { kind: 'unknown', why };
  const keyWorks = ctx.checklist.find((r) => r.id === 'key')?.status === 'pass';
  return { kind: c.kind === 'forbidden' || c.kind === 'not_found' || (c.kind === 'unauthorized' && keyWorks) ? 'tenant' : 'unknown' };
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

/** A refusal the API gives only to a key it knows proves the key valid, and must not read as "accepted" beside a 403. */
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

/** Tenants /docs named that the key was refused on as another tenant's, before the probed one. */
function missedGuesses(ctx: StepContext): string[] {
  return ctx.guesses.filter((slug) => slug !== ctx.probedTenant);
}

function tenantPassNote(ctx: StepContext, keyKind: KeyKindGuess, tenant: string): string {
  if (keyKind === 'platform') {
    const how =
      ctx.tenantSource === 'platform' ? ` (checked with ${tenant}, the first tenant /platform/ lists)` : ` (checked with ${tenant})`;
    return `a platform key may read every tenant${how}`;
  }
  if (ctx.tenantSource !== 'docs') return `the key is accepted for tenant ${tenant}`;
  const missed = missedGuesses(ctx);
  const before = missed.length > 0 ? `; not ${missed.join(', ')}: tenant_key_tenant_mismatch` : '';
  return `the key is accepted for tenant ${tenant}, a tenant /docs names (the API cannot say which tenant a key has${before})`;
}

export function tenantStep(ctx: StepContext, keyKind: KeyKindGuess): DiagnosisRow[] {
  const tenant = ctx.probedTenant;
  const title = tenant === undefined ? 'tenant in URL matches the key' : `tenant ${tenant} matches the key`;
  if (tenant === undefined && ctx.traffic.stopped !== undefined) return [notRunRow('tenant', 'tenant', title, notRunBecause(ctx, ''))];
  if (tenant === undefined)
    return [makeRow('tenant', 'tenant', title, 'skip', { kind: 'tenant_unknown', keyKind, tried: missedGuesses(ctx) })];
  return [checklistRow(ctx, 'tenant', 'tenant', title, tenantPassNote(ctx, keyKind, tenant))];
}

export function scopeStep(ctx: StepContext): DiagnosisRow[] {
  return TENANT_RESOURCES.map((resource) => {
    const row = checklistRow(ctx, `scope:${resource}`, 'scope', `may read ${resource}`, `the key may read ${resource}`);
    if (ctx.probedTenant === undefined)
      return { ...row, explanation: `not run: ${notRunBecause(ctx, 'no tenant to read; pass --tenant SLUG')}` };
    return row;
  });
}

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
