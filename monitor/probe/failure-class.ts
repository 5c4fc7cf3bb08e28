/**
 * Whose problem a failed probe is: the class decides which alert speaks, so an outage pages,
 * a bad key or a misspelt tenant opens a ticket, and throttling never looks like either. Pure.
 * - `service`: the API failed (timeout, connection, TLS, 5xx, another 4xx, a redirect, a bad envelope): pages.
 * - `key`: the key itself was refused (unauthorized, tenant_mismatch, insufficient_scope, forbidden): support.
 * - `config`: monitor.yaml names something the API does not have (a 404 on a configured tenant
 *   or /platform/ sub-path): support. `/` and `/docs` are the spec's own paths, so a 404 there is the service's.
 * - `throttled`: a 429, or not sent while a Retry-After is waited out: says nothing about whether the API is up.
 * - `breach`: data came back where a refusal was expected.
 */
import { type EndpointId, TENANT_RESOURCES } from '../../api/contract/index.js';
import type { Outcome } from './expectation.js';

export const FAILURE_CLASSES = ['none', 'service', 'key', 'config', 'throttled', 'breach'] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

const KEY_REFUSALS: ReadonlySet<Outcome> = new Set(['unauthorized', 'tenant_mismatch', 'insufficient_scope', 'forbidden']);
/** Endpoints whose path holds a configured name (a tenant slug or a /platform/ sub-path). */
const CONFIGURED_PATHS: ReadonlySet<EndpointId> = new Set(['platform', ...TENANT_RESOURCES]);

export function failureClass(outcome: Outcome, success: boolean, endpoint: EndpointId): FailureClass {
  if (success) return 'none';
  if (KEY_REFUSALS.has(outcome)) return 'key';
  if (outcome === 'rate_limited') return 'throttled';
  if (outcome === 'assertion_failed') return 'breach';
  return outcome === 'not_found' && CONFIGURED_PATHS.has(endpoint) ? 'config' : 'service';
}

/** The current run of failures of one class ending with the latest probe; count 0 for `none`. */
export interface Streak {
  readonly class: FailureClass;
  readonly count: number;
}

export const NO_STREAK: Streak = { class: 'none', count: 0 };

/**
 * The streak after one more verdict. A success ends any streak; a failure of the streak's
 * class extends it, of another class starts a new one. Throttling neither extends nor breaks a
 * streak of another class: a 429 or a held probe says nothing about an outage or a key, so an
 * outage interrupted by a Retry-After hold is still an outage, and resolves only on a success.
 */
export function nextStreak(previous: Streak, next: FailureClass): Streak {
  if (next === 'none') return NO_STREAK;
  if (next === previous.class) return { class: next, count: previous.count + 1 };
  if (next === 'throttled' && previous.class !== 'none') return previous;
  return { class: next, count: 1 };
}
