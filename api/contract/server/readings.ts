/**
 * One reading of each "not shown" point that changes what a server answers (the readings are
 * named in ../readings.ts): what a sandbox dialect speaks and what an OpenAPI document
 * describes (a document may leave any point open). With it, what each reading means on the
 * wire, written once for both.
 */
import { RATE_LIMIT_HEADERS as H } from '../index.js';
import {
  type IndexAccessReading,
  type PlatformRefusal,
  type RateLimitHeaderStyle,
  type ScopeRefusal,
  type SlugStyle,
  type UnauthorizedStatus,
} from '../readings.js';

export interface Readings {
  readonly slug: SlugStyle;
  /** Whether GET / needs a key; `unknown` (a document only): either. */
  readonly index: IndexAccessReading;
  /** Status of `unauthorized` and of the missing-key code. */
  readonly unauthorizedStatus: UnauthorizedStatus;
  /** `error.code` for a request with no key on a path that needs one. */
  readonly missingKey: string;
  readonly scopeRefusal: ScopeRefusal;
  /** Sub-paths below /platform/ served; none: not known. */
  readonly platformPaths: readonly string[];
  readonly platformRefusal: PlatformRefusal;
  readonly rateLimitHeaders: RateLimitHeaderStyle;
}

export interface RateLimitFields {
  /** Sent on every answer the limiter counted (a valid key on a path that needs one). */
  readonly everyAnswer: readonly string[];
  /** Sent on a 429 besides `everyAnswer`. */
  readonly on429: readonly string[];
}

/** The header fields each rate-limit header style sends. */
export const RATE_LIMIT_STYLE_FIELDS: Readonly<Record<RateLimitHeaderStyle, RateLimitFields>> = {
  ietf: { everyAnswer: [H.limit, H.remaining, H.reset], on429: [H.retryAfter] },
  'ratelimit-field': { everyAnswer: [H.field, H.policy], on429: [H.retryAfter] },
  'x-ratelimit-epoch': { everyAnswer: [H.xLimit, H.xRemaining, H.xReset], on429: [] },
  'x-ratelimit-delta': { everyAnswer: [H.xLimit, H.xRemaining, H.xReset], on429: [] },
  'retry-after-date': { everyAnswer: [], on429: [H.retryAfter] },
  none: { everyAnswer: [], on429: [] },
};

/** Every header name a style can send. */
export function rateLimitHeaderNames(style: RateLimitHeaderStyle): string[] {
  const { on429, everyAnswer } = RATE_LIMIT_STYLE_FIELDS[style];
  return [...on429, ...everyAnswer];
}
