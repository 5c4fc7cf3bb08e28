/**
 * The discovery report: which reading of the spec's "not shown" points a real API follows.
 * Every finding is learned with the evidence that decided it, or unknown with the reason, so a
 * script (or a test comparing with a sandbox dialect) reads one stable shape.
 */
import type { AuthScheme, KeyKind, TenantResource } from '../api/contract/index.js';
import type { ErrorBodies, IndexAccessReading, RateLimitHeaderStyle, SlugStyle } from '../api/contract/readings.js';

/** One open point: the reading learned with the evidence that decided it, or why it is unknown. */
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

export interface DiscoveryFindings {
  /** GET / without a key: 2xx public, a refusal key (readings.ts INDEX_ACCESS). */
  readonly indexAccess: Reading<Exclude<IndexAccessReading, 'unknown'>>;
  /** A tenant path with a made-up key. */
  readonly invalidKey: Reading<Refusal>;
  /** The same path with no key at all. */
  readonly missingKey: Reading<Refusal>;
  /** The sub-paths below /platform/: --platform-path, else those /docs lists (readings.ts PLATFORM_PATHS). */
  readonly platformPaths: Reading<readonly string[]>;
  readonly keyKind: Reading<KeyKind>;
  /** What a tenant key gets on a /platform/ path. */
  readonly platformRefusal: Reading<Refusal>;
  /** The resources of --tenant the key reads. */
  readonly readableResources: Reading<readonly TenantResource[]>;
  /** What a key gets on a resource outside its scope. */
  readonly scopeRefusal: Reading<Refusal>;
  readonly slugStyle: Reading<SlugStyle>;
  readonly rateLimitHeaders: Reading<RateLimitStyle>;
  /** The body a 401 (or a 429) comes with. */
  readonly errorBodies: Reading<ErrorBodies>;
  /** The header answers carry a request id in, or `none seen`. */
  readonly requestIdHeader: Reading<string>;
}

export type FindingName = keyof DiscoveryFindings;

/** Table order. */
export const FINDING_NAMES: readonly FindingName[] = [
  'indexAccess',
  'invalidKey',
  'missingKey',
  'platformPaths',
  'keyKind',
  'platformRefusal',
  'readableResources',
  'scopeRefusal',
  'slugStyle',
  'rateLimitHeaders',
  'errorBodies',
  'requestIdHeader',
];

/** Whether the host answers as API v1 at all: /docs, public by the spec, with the envelope. */
export type HostCheck = { readonly kind: 'api_v1'; readonly evidence: string } | { readonly kind: 'not_api_v1'; readonly why: string };

export interface DiscoveryReport {
  readonly tool: 'repairmon discover';
  readonly baseUrl: string;
  readonly auth: AuthScheme;
  /** The key's last characters (ApiKey.hint), or null when discovery ran without one. */
  readonly keyHint: string | null;
  /** --tenant, or null. */
  readonly tenant: string | null;
  readonly host: HostCheck;
  readonly findings: DiscoveryFindings;
  /** Findings left unknown because no key was given (empty with a key). */
  readonly needKey: readonly FindingName[];
  /** Findings left unknown because no --tenant was given (empty with one). */
  readonly needTenant: readonly FindingName[];
  readonly requests: { readonly made: number; readonly max: number };
  readonly exitCode: 0 | 1;
}
