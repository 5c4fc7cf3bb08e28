/** The readings of a recorded answer `repairmon probe` and `repairmon discover` share. Pure. */
import { type CallRecord } from './engine.js';
import type { AttemptResponse, AttemptResult } from '../api/client/single-attempt.js';
import { platformPath } from '../api/contract/index.js';
import { tenantSlugsInListing } from '../api/contract/readings.js';

export type Answered = CallRecord & { readonly result: AttemptResult };

/** /platform/ sub-paths asked with the key: a second covers a first that said nothing (a 5xx) or a tenant listing. */
export const MAX_PLATFORM_CALLS = 2;

export function isResponse(result: AttemptResult | undefined): result is AttemptResponse {
  return result?.kind === 'response';
}

export function answered(records: Iterable<CallRecord>): Answered[] {
  return [...records].filter((r): r is Answered => r.result !== undefined);
}

/** The payload of an answer with the success envelope. */
export function okData(result: AttemptResult | undefined): { readonly data: unknown } | undefined {
  return isResponse(result) && result.classification.kind === 'ok' ? { data: result.classification.data } : undefined;
}

/** The error envelope's code and (Polish) message, when the answer carried one. */
export function errorOf(result: AttemptResult | undefined): { readonly code: string; readonly message: string } | undefined {
  return isResponse(result) && result.envelope.valid && !result.envelope.envelope.ok ? result.envelope.envelope.error : undefined;
}

/** The tenant slugs a /platform/ listing names (none unless it answered with data). */
export function tenantsListed(result: AttemptResult | undefined): string[] {
  const listing = okData(result);
  return listing ? tenantSlugsInListing(listing.data) : [];
}

/**
 * Why a 404 on a /platform/ sub-path /docs does not list tells nothing of the key (as likely the
 * wrong path), or undefined; on a listed path a 404 hides /platform/ from a tenant key (PLATFORM_REFUSALS).
 */
export function unlistedNotFound(sub: string, result: AttemptResult | undefined, listed: readonly string[]): string | undefined {
  if (!isResponse(result) || result.classification.kind !== 'not_found' || listed.includes(sub)) return undefined;
  return (
    `GET ${platformPath(sub)} answered HTTP 404 and /docs does not list that path: a wrong path answers so, and so does an API that hides /platform/ from tenant keys, ` +
    "so the key's kind is undetermined (give a sub-path /docs lists, or one a platform key reads)"
  );
}
