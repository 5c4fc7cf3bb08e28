/**
 * Which form an answer's body takes. The spec leaves only the bodies of 401 and 429 open
 * (§7: "the codes and bodies for 401 and 429 ... not shown"), so a dialect with
 * `error-bodies=plain` sends those two as the status text; every other answer is the envelope.
 */
import { STATUS_CODES } from 'node:http';
import type { ErrorBodies } from '../api/contract/index.js';

export type BodyForm = 'envelope' | 'plain';

export const OPEN_BODY_STATUSES: readonly number[] = [401, 429];
export const PLAIN_CONTENT_TYPE = 'text/plain; charset=utf-8';

export function bodyForm(errorBodies: ErrorBodies, status: number): BodyForm {
  return errorBodies === 'plain' && OPEN_BODY_STATUSES.includes(status) ? 'plain' : 'envelope';
}

/** `Unauthorized`, `Too Many Requests`: what a proxy or framework sends by default. */
export function plainText(status: number): string {
  return STATUS_CODES[status] ?? String(status);
}
