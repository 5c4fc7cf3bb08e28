/**
 * The probe's report: one row per check, each carrying the finding that decided its status,
 * and a verdict naming the first broken step. Renderers and the exit code read only this.
 */
import type { AuthScheme, EnvelopeProblem, KeyKind, TenantResource } from '../api/contract/index.js';
import type { TransportFailure } from '../api/client/single-attempt.js';

/** The spec's debugging checklist, in its order (step 6, curl lines, is attached to failing rows). */
export const STEPS = ['host', 'key', 'tenant', 'scope', 'headers'] as const;
export type StepId = (typeof STEPS)[number];

export const STEP_TITLES: Readonly<Record<StepId, string>> = {
  host: 'host and path',
  key: 'key accepted',
  tenant: 'tenant',
  scope: 'scope',
  headers: 'header forms and rate limits',
};

export type DiagnosisStatus = 'pass' | 'fail' | 'warn' | 'skip';

/** Why a row has its status; the English explanation is written from this alone. */
export type Finding =
  | { readonly kind: 'ok'; readonly note?: string }
  | { readonly kind: 'base_path_wrong'; readonly path: string }
  | { readonly kind: 'unreachable'; readonly failure: TransportFailure }
  | { readonly kind: 'not_api'; readonly status: number; readonly problem: EnvelopeProblem; readonly html: boolean }
  | { readonly kind: 'not_found'; readonly status: number }
  | { readonly kind: 'redirect'; readonly status: number; readonly location: string | undefined }
  | { readonly kind: 'server_error'; readonly status: number; readonly html: boolean }
  | { readonly kind: 'rate_limited'; readonly retryAfter: string | undefined }
  | { readonly kind: 'key_rejected'; readonly testKeyOnProduction: boolean }
  | { readonly kind: 'key_kind'; readonly keyKind: KeyKind }
  | { readonly kind: 'tenant_mismatch'; readonly urlTenant: string; readonly keyTenant: string | undefined }
  | { readonly kind: 'tenant_unknown' }
  | { readonly kind: 'scope_missing'; readonly resource: TenantResource; readonly readable: readonly TenantResource[] }
  | { readonly kind: 'header_forms_differ'; readonly primary: string; readonly other: string }
  | { readonly kind: 'no_rate_limit_headers' }
  | { readonly kind: 'unexpected'; readonly status: number; readonly code: string | undefined }
  | { readonly kind: 'not_run'; readonly because: string };

export interface RateLimitHeaders {
  readonly limit?: string;
  readonly remaining?: string;
  readonly reset?: string;
  readonly retryAfter?: string;
}

export interface DiagnosisRequest {
  readonly method: 'GET';
  readonly url: string;
  readonly auth: AuthScheme | 'none';
}

export interface DiagnosisRow {
  readonly step: StepId;
  /** Stable id such as `docs`, `platform:tenants`, `scope:logs`. */
  readonly check: string;
  readonly title: string;
  readonly status: DiagnosisStatus;
  readonly finding: Finding;
  readonly request?: DiagnosisRequest;
  readonly httpStatus?: number;
  readonly errorCode?: string;
  /** The server's message, verbatim (Polish). */
  readonly serverMessage?: string;
  readonly explanation: string;
  readonly latencyMs?: number;
  readonly requestId?: string;
  readonly rateLimit?: RateLimitHeaders;
  /** Reproduces the failing call with `$REPAIR_API_KEY` in place of the key. */
  readonly curl?: string;
  /** Set on a failure in a later step that has the same cause as the first broken check. */
  readonly consequenceOf?: string;
}

export type DiagnosisVerdict =
  | { readonly kind: 'ok'; readonly summary: string }
  /** Nothing failed, but the key was never tried on a path that needs one: no claim it works. */
  | { readonly kind: 'incomplete'; readonly summary: string }
  | { readonly kind: 'broken'; readonly step: StepId; readonly stepNumber: number; readonly check: string; readonly summary: string };

export interface DiagnosisReport {
  readonly tool: 'repairmon probe';
  readonly baseUrl: string;
  readonly auth: AuthScheme;
  readonly key: { readonly hint: string; readonly environment: 'test' | 'production' | 'unknown'; readonly kind: KeyKind | 'unknown' };
  readonly tenant: { readonly probed: string | undefined; readonly urlTenant: string | undefined; readonly keyTenant: string | undefined };
  readonly checks: readonly DiagnosisRow[];
  readonly verdict: DiagnosisVerdict;
  readonly exitCode: 0 | 1;
}
