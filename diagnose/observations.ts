/**
 * What `repairmon probe` and `repairmon discover` record of their calls, in one shape, and the
 * readings of a recorded answer both tools share. Pure.
 */
import type { AttemptResponse, AttemptResult, RetryHint } from '../api/client/single-attempt.js';
import { type AuthScheme, type EndpointId, endpointPath, platformPath } from '../api/contract/index.js';
import { tenantSlugsInListing } from '../api/contract/readings.js';

export interface Call {
  /** `docs`, `index`, `platform:<sub>`, `scope:<resource>`, ...: the call's key in the observations. */
  readonly id: string;
  readonly endpoint: EndpointId;
  readonly path: string;
  /** The header form the key travels in, or `none` for a call without a key. */
  readonly auth: AuthScheme | 'none';
  /** A key made up so it cannot be valid goes instead of the user's (discover's refusal calls). */
  readonly madeUpKey?: true;
}

export interface CallRecord {
  readonly call: Call;
  readonly url: string;
  readonly result: AttemptResult | undefined;
  /** Requests sent for this call: 0 not run, 2 when a 429 was retried after the wait it asked for. */
  readonly attempts: number;
  readonly retryHint?: RetryHint | undefined;
}

export type Answered = CallRecord & { readonly result: AttemptResult };

/** Calls by id, in the order they were made. */
export type Observations = ReadonlyMap<string, CallRecord>;

/** GET /docs without a key: public by the spec (§5.7), the first call of both tools. */
export const DOCS_CALL: Call = { id: 'docs', endpoint: 'docs', path: endpointPath('docs'), auth: 'none' };

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
