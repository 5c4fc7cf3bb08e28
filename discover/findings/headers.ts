/**
 * Headers on the answers: the rate-limit style (spec §8: "rate-limit headers: not shown"), read
 * from the normal answers, else from a 429 if one was met (discovery never provokes one), and
 * the request-id header.
 */
import { RATE_LIMIT_HEADERS, REQUEST_ID_HEADER, printable } from '../../api/contract/index.js';
import { type AttemptResponse, parseRetryHint } from '../../api/client/single-attempt.js';
import { type CallRecord } from '../../diagnose/index.js';
import { isResponse } from '../../diagnose/index.js';
import { callText, evidenceOf } from '../answer.js';
import type { RateLimitStyle, Reading } from '../types.js';
import { type FindingContext, NEEDS_KEY, keyProof, learned, unknown } from './context.js';

type Responded = CallRecord & { readonly result: AttemptResponse };

function answers(ctx: FindingContext): Responded[] {
  return [...ctx.observations.values()].filter((r): r is Responded => isResponse(r.result));
}

/**
 * Whether an `X-RateLimit-Reset` is an epoch or seconds to wait, decided by the client's own
 * parser so the two can never disagree: an epoch's delay depends on the clock, a delta's does not.
 */
function xResetStyle(value: string): RateLimitStyle | undefined {
  const at = (nowMs: number) => parseRetryHint({ [RATE_LIMIT_HEADERS.xReset]: value }, nowMs)?.delayMs;
  const first = at(0);
  if (first === undefined) return undefined;
  return first === at(1) ? 'x-ratelimit-delta' : 'x-ratelimit-epoch';
}

/** The style the headers name, with them shown; `style` undefined: X-RateLimit-* without a numeric Reset. */
function styleOf(headers: Readonly<Record<string, string>>): { style: RateLimitStyle | undefined; shown: string } | undefined {
  const h = RATE_LIMIT_HEADERS;
  const present = (...names: string[]): string[] => names.filter((n) => headers[n] !== undefined);
  const show = (...names: string[]): string =>
    present(...names)
      .map((n) => `${n}: ${printable(headers[n] ?? '')}`)
      .join(', ');
  if (present(h.limit, h.remaining, h.reset).length > 0) return { style: 'ietf', shown: show(h.limit, h.remaining, h.reset) };
  if (headers[h.field] !== undefined) return { style: 'ratelimit-field', shown: show(h.field, h.policy) };
  if (present(h.xLimit, h.xRemaining, h.xReset).length === 0) return undefined;
  const reset = headers[h.xReset];
  return { style: reset === undefined ? undefined : xResetStyle(reset), shown: show(h.xLimit, h.xRemaining, h.xReset) };
}

function fromHeaders(record: Responded, found: { style: RateLimitStyle | undefined; shown: string }): Reading<RateLimitStyle> {
  const evidence = `${callText(record)} -> ${record.result.status === 429 ? 'HTTP 429 with ' : ''}${found.shown}`;
  if (found.style === undefined) return unknown(`${evidence}: X-RateLimit-* without a numeric Reset, so epoch or delta cannot be told`);
  return learned(found.style, evidence);
}

/**
 * A 429 whose headers name no style: no header at all is `none`, a Retry-After date alone
 * `retry-after-date`; a Retry-After in seconds alone (the spec's own hint) shows no style.
 */
function fromLimited(record: Responded, normal: number): Reading<RateLimitStyle> {
  const retryAfter = record.result.headers[RATE_LIMIT_HEADERS.retryAfter];
  const call = `${callText(record)} -> HTTP 429`;
  if (retryAfter === undefined) return learned('none', `${call} without any rate-limit header, and none on ${normal} other answers`);
  const shown = `${RATE_LIMIT_HEADERS.retryAfter}: ${printable(retryAfter)}`;
  if (!/^\s*\d+\s*$/.test(retryAfter) && !Number.isNaN(Date.parse(retryAfter)))
    return learned('retry-after-date', `${call} with ${shown} (an HTTP date) only`);
  return learned(
    'none seen',
    `no rate-limit header on any of ${normal} other answers; ${call} with ${shown} only (seconds, the spec's own hint)`,
  );
}

export function rateLimitHeadersFinding(ctx: FindingContext): Reading<RateLimitStyle> {
  const all = answers(ctx);
  const normal = all.filter((r) => r.result.status !== 429);
  const limited = all.filter((r) => r.result.status === 429);
  for (const record of [...normal, ...limited]) {
    const found = styleOf(record.result.headers);
    if (found) return fromHeaders(record, found);
  }
  if (limited[0]) return fromLimited(limited[0], normal.length);
  if (!ctx.keyGiven)
    return unknown(
      `${NEEDS_KEY}: none of the ${normal.length} answers without one carried a rate-limit header, and limits are usually counted per key`,
    );
  const none =
    `no rate-limit header on any of ${normal.length} answers and no 429 met: only a 429's headers tell retry-after-date (an HTTP-date Retry-After) ` +
    'from none (no header at all), and discovery provokes none';
  const proof = keyProof(ctx);
  if (!proof) return unknown(`${none}; no answer proves the key valid, so none was counted against it`);
  return learned('none seen', `${none}; the key is valid: ${evidenceOf(proof)}`);
}

/** `x-request-id` (the contract's), else any other `*request-id*` header, else `none seen`. */
export function requestIdHeaderFinding(ctx: FindingContext): Reading<string> {
  const all = answers(ctx);
  if (all.length === 0) return unknown('no HTTP answer to read headers from');
  const names = all.flatMap((r) => Object.keys(r.result.headers).filter((n) => /request-?id/i.test(n)));
  const header = names.includes(REQUEST_ID_HEADER) ? REQUEST_ID_HEADER : names[0];
  if (header === undefined) return learned('none seen', `no *request-id* header on any of ${all.length} answers`);
  const carrying = all.filter((r) => r.result.headers[header] !== undefined).length;
  return learned(header, `${header} on ${carrying} of ${all.length} answers`);
}
