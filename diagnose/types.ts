/**
 * The probe's report: one row per check with the finding that decided its status, what the run
 * spent, and a verdict. Renderers and the exit code read only this.
 */
import type { ChecklistCause } from '../api/checklist/index.js';
import type { AuthScheme, KeyKind, TenantResource } from '../api/contract/index.js';
import type { RetryHint } from '../api/client/single-attempt.js';
import type { Traffic } from './send.js';

/** The spec's debugging checklist, in its order (step 6, curl lines, is attached to failing rows). */
export const STEP_TITLES = {
  host: 'host and path',
  key: 'key accepted',
  tenant: 'tenant',
  scope: 'scope',
  headers: 'header forms and rate limits',
} as const;
export type StepId = keyof typeof STEP_TITLES;
export const STEPS = Object.keys(STEP_TITLES) as StepId[];

type Cause<K extends ChecklistCause['kind']> = Extract<ChecklistCause, { kind: K }>;

/** Why a row has its status (its explanation is written from this alone): an answer kind, or one of the probe's own checks. */
export type Finding =
  | { readonly kind: 'ok'; readonly note?: string }
  | Exclude<ChecklistCause, { kind: 'ok' | 'not_checked' | 'rate_limited' | 'unauthorized' | 'tenant_mismatch' | 'insufficient_scope' }>
  | (Cause<'rate_limited'> & { readonly retryAfterS: number | undefined; readonly hintSource: RetryHint['source'] | undefined })
  | (Cause<'unauthorized'> & { readonly testKeyOnProduction: boolean })
  | (Cause<'tenant_mismatch'> & { readonly urlTenant: string; readonly keyTenant: string | undefined })
  | (Cause<'insufficient_scope'> & { readonly resource: TenantResource | undefined; readonly readable: readonly TenantResource[] })
  | { readonly kind: 'base_path_wrong'; readonly path: string }
  | { readonly kind: 'key_kind'; readonly keyKind: KeyKind }
  /** /platform/ answered, but not in a way that tells the key's kind. */
  | { readonly kind: 'key_kind_unknown'; readonly why: string }
  /** No tenant to probe; `tried` are tenants /docs named that refused the key as another tenant's. */
  | { readonly kind: 'tenant_unknown'; readonly keyKind: KeyKind | 'unknown'; readonly tried: readonly string[] }
  | { readonly kind: 'header_forms_differ'; readonly primary: string; readonly other: string }
  | { readonly kind: 'no_rate_limit_headers' }
  /** The host answered, but /docs failed on the server's side (`html`: a proxy's page). */
  | { readonly kind: 'docs_failed'; readonly status: number; readonly html: boolean }
  | { readonly kind: 'not_checked'; readonly because: string };

export type RateLimitHeaders = Partial<Record<'limit' | 'remaining' | 'reset' | 'retryAfter', string>>;

export interface DiagnosisRow {
  readonly step: StepId;
  /** Stable id such as `docs`, `platform:tenants`, `scope:logs`. */
  readonly check: string;
  readonly title: string;
  readonly status: 'pass' | 'fail' | 'warn' | 'skip';
  /** The checklist core's cause for its rows, `causeOf` the answer shown for the probe's; the verdict reads the first failing one. */
  readonly finding: Finding;
  readonly request?: { readonly method: 'GET'; readonly url: string; readonly auth: AuthScheme | 'none' };
  readonly httpStatus?: number;
  readonly errorCode?: string;
  /** The server's message, verbatim (Polish). */
  readonly serverMessage?: string;
  readonly explanation: string;
  readonly latencyMs?: number;
  readonly requestId?: string;
  /** The W3C trace id the call went with (its `traceparent`): with the request id, what the API team searches by. */
  readonly traceId?: string;
  readonly rateLimit?: RateLimitHeaders;
  /** Reproduces the failing call with `$REPAIR_API_KEY` in place of the key. */
  readonly curl?: string;
  /** Set on a failure in a later step that has the same cause as the first broken check. */
  readonly consequenceOf?: string;
}

/** How the tenant the resource calls used was chosen. */
export type TenantSource = 'url' | 'flag' | 'platform' | 'docs' | 'none';

/** The report before its verdict: what the verdict is read from (the report itself: `verdict.ts`). */
export interface ReportBody {
  readonly tool: 'repairmon probe';
  readonly baseUrl: string;
  readonly auth: AuthScheme;
  readonly key: { readonly hint: string; readonly environment: 'test' | 'production' | 'unknown'; readonly kind: KeyKind | 'unknown' };
  readonly tenant: {
    readonly probed: string | undefined;
    readonly source: TenantSource;
    readonly urlTenant: string | undefined;
    readonly keyTenant: string | undefined;
    readonly guessed: readonly string[];
  };
  readonly timeoutS: number;
  readonly checks: readonly DiagnosisRow[];
  readonly traffic: Traffic;
}
