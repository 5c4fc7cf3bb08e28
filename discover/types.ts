/**
 * The shapes every finding speaks: which reading of a "not shown" point a real API follows,
 * learned with the evidence that decided it, or unknown with the reason, so a script (or a test
 * comparing with a sandbox dialect) reads one stable shape. The report itself: `report.ts`.
 */
import type { RateLimitHeaderStyle } from '../api/contract/readings.js';

export type Reading<T> =
  { readonly kind: 'learned'; readonly reading: T; readonly evidence: string } | { readonly kind: 'unknown'; readonly why: string };

/** How a request was refused: the status and `error.code`, null when the body was not the envelope. */
export interface Refusal {
  readonly status: number;
  readonly code: string | null;
}

/**
 * The contract's rate-limit header styles, plus `none seen`: no header on any normal answer and
 * no 429 met, which `retry-after-date` and `none` both give (only a 429's headers tell them apart).
 */
export type RateLimitStyle = RateLimitHeaderStyle | 'none seen';

/** Whether the host answers as API v1 at all: /docs, public by the spec, with the envelope. */
export type HostCheck = { readonly kind: 'api_v1'; readonly evidence: string } | { readonly kind: 'not_api_v1'; readonly why: string };
