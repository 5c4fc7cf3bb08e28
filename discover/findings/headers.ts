/**
 * Headers on the normal answers (anything but a 429, which discovery never provokes): the
 * rate-limit style (spec §8: "rate-limit headers: not shown") and the request-id header.
 */
import { RATE_LIMIT_HEADERS, REQUEST_ID_HEADER } from '../../api/contract/index.js';
import { type AttemptResponse, parseRetryHint } from '../../api/client/single-attempt.js';
import { printable } from '../../diagnose/render-table.js';
import { callText, evidenceOf, isResponse } from '../answer.js';
import type { CallRecord } from '../plan.js';
import type { Finding, RateLimitStyle } from '../types.js';
import { type FindingContext, NEEDS_KEY, keyProof, learned, unknown } from './context.js';

type Answered = CallRecord & { readonly result: AttemptResponse };

function answers(ctx: FindingContext): Answered[] {
  return [...ctx.observations.values()].filter((r): r is Answered => isResponse(r.result));
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

type HeaderStyle = { readonly style: RateLimitStyle; readonly shown: string } | { readonly style: 'x-ratelimit-unclear'; readonly shown: string };

function styleOf(headers: Readonly<Record<string, string>>): HeaderStyle | undefined {
  const h = RATE_LIMIT_HEADERS;
  const show = (...names: string[]): string => names.filter((n) => headers[n] !== undefined).map((n) => `${n}: ${printable(headers[n] ?? '')}`).join(', ');
  if ([h.limit, h.remaining, h.reset].some((n) => headers[n] !== undefined)) return { style: 'ietf', shown: show(h.limit, h.remaining, h.reset) };
  if (headers[h.field] !== undefined) return { style: 'ratelimit-field', shown: show(h.field, h.policy) };
  const reset = headers[h.xReset];
  const xStyle = reset === undefined ? undefined : xResetStyle(reset);
  if (xStyle) return { style: xStyle, shown: show(h.xLimit, h.xRemaining, h.xReset) };
  if ([h.xLimit, h.xRemaining, h.xReset].some((n) => headers[n] !== undefined)) return { style: 'x-ratelimit-unclear', shown: show(h.xLimit, h.xRemaining, h.xReset) };
  return undefined;
}

export function rateLimitHeadersFinding(ctx: FindingContext): Finding<RateLimitStyle> {
  const normal = answers(ctx).filter((r) => r.result.status !== 429);
  for (const record of normal) {
    const found = styleOf(record.result.headers);
    if (!found) continue;
    const evidence = `${callText(record)} -> ${found.shown}`;
    if (found.style === 'x-ratelimit-unclear') return unknown(`${evidence}: X-RateLimit-* without a numeric Reset, so epoch or delta cannot be told`);
    return learned(found.style, evidence);
  }
  if (!ctx.keyGiven) return unknown(`${NEEDS_KEY}: none of the ${normal.length} answers without one carried a rate-limit header, and limits are usually counted per key`);
  const none = `no rate-limit header on any of ${normal.length} normal answers (no 429 is provoked, so a Retry-After-only API reads so)`;
  const proof = keyProof(ctx);
  if (!proof) return unknown(`${none}, and no answer proves the key valid, so none was counted against it`);
  return learned('none seen', `${none}; the key is valid: ${evidenceOf(proof)}`);
}

/** `x-request-id` (the contract's), else any other `*request-id*` header, else `none seen`. */
export function requestIdHeaderFinding(ctx: FindingContext): Finding<string> {
  const all = answers(ctx);
  if (all.length === 0) return unknown('no HTTP answer to read headers from');
  const names = all.flatMap((r) => Object.keys(r.result.headers).filter((n) => /request-?id/i.test(n)));
  const header = names.includes(REQUEST_ID_HEADER) ? REQUEST_ID_HEADER : names[0];
  if (header === undefined) return learned('none seen', `no *request-id* header on any of ${all.length} answers`);
  const carrying = all.filter((r) => r.result.headers[header] !== undefined).length;
  return learned(header, `${header} on ${carrying} of ${all.length} answers`);
}
