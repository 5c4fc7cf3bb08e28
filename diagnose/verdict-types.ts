/**
 * The probe's verdict: what went wrong, named by its cause. The kinds are the checklist
 * core's `ChecklistCause` kinds as support says them (a `no_answer` is a timeout, an
 * unreachable host or a dropped connection; a redirect or a 404 on the base path is "not the
 * API"), plus the probe's own header-form check, and `ok` / `incomplete`. The step where the
 * failure showed is evidence, never the headline: a 429 is "rate limited" on any row.
 */
import type { KeyKind, TenantResource } from '../api/contract/index.js';
import type { TimeoutPhase } from '../api/client/single-attempt.js';
import type { RateLimitStop } from './pacing.js';

export const VERDICT_KINDS = [
  'ok',
  'incomplete',
  'rate_limited',
  'server_error',
  'timeout',
  'host_unreachable',
  'no_answer',
  'not_api',
  'key_rejected',
  'tenant_mismatch',
  'scope_missing',
  'refused',
  'not_found',
  'client_error',
  'header_forms_differ',
] as const;
export type VerdictKind = (typeof VERDICT_KINDS)[number];

/** The first failing row: the call and the step where the cause showed. */
export interface VerdictEvidence {
  readonly check: string;
  readonly title: string;
  readonly step: string;
  readonly stepNumber: number;
  readonly stepTitle: string;
  readonly url?: string | undefined;
  readonly httpStatus?: number | undefined;
  readonly errorCode?: string | undefined;
  readonly requestId?: string | undefined;
}

interface Said {
  /** The headline word(s), e.g. `RATE LIMITED`. */
  readonly headline: string;
  /** One line: the headline, what happened and where. */
  readonly summary: string;
  /** What support does next. */
  readonly next: string;
}

type Broken<K extends VerdictKind, Detail = unknown> = Said & { readonly kind: K; readonly evidence: VerdictEvidence } & Detail;

/** How a host could not be reached. */
export type Unreachable = 'dns' | 'refused' | 'network' | 'tls';

/** Why the answers show this is not API v1. */
export type NotApiReason = 'base_path' | 'not_found' | 'redirect' | 'html_page' | 'not_envelope';

/** What kept the key from being tried on a tenant path. */
export type IncompleteReason =
  /** A tenant key (or one of unknown kind) and nothing named its tenant. */
  | 'no_tenant'
  /** A platform key whose listing named no tenant. */
  | 'platform_no_tenant'
  /** Every tenant /docs named answered tenant_key_tenant_mismatch. */
  | 'guesses_mismatched'
  /** The run stopped (budget) before a tenant path was called. */
  | 'stopped';

export type DiagnosisVerdict =
  | (Said & { readonly kind: 'ok' })
  /** Nothing failed, but the key was never tried on a path that needs one: no claim it works. */
  | (Said & { readonly kind: 'incomplete'; readonly reason: IncompleteReason; readonly keyKind: KeyKind | 'unknown'; readonly notChecked: readonly string[] })
  | Broken<
      'rate_limited',
      {
        readonly retryAfterS: number | undefined;
        /** Why the run stopped there; undefined when it went on (a later call was limited for good). */
        readonly stopped: RateLimitStop | undefined;
        readonly notRun: number;
        /** The limited call carried the key; a 429 on keyless /docs is the host's or a proxy's limit. */
        readonly keyed: boolean;
      }
    >
  | Broken<'server_error', { readonly status: number; readonly html: boolean; readonly code: string | undefined }>
  | Broken<'timeout', { readonly phase: TimeoutPhase; readonly timeoutS: number }>
  | Broken<'host_unreachable', { readonly how: Unreachable; readonly code: string }>
  /** A connection dropped mid-answer, or a body past the size cap: an answer that never completed. */
  | Broken<'no_answer', { readonly code: string }>
  | Broken<'not_api', { readonly reason: NotApiReason; readonly status: number | undefined }>
  | Broken<'key_rejected', { readonly status: number; readonly code: string | undefined; readonly testKeyOnProduction: boolean }>
  | Broken<'tenant_mismatch', { readonly urlTenant: string; readonly keyTenant: string | undefined }>
  | Broken<'scope_missing', { readonly resource: TenantResource | undefined; readonly readable: readonly TenantResource[] }>
  /** A refusal with a code the checklist does not single out (e.g. 403 `forbidden`). */
  | Broken<'refused', { readonly status: number; readonly code: string }>
  /** The API has nothing at a tenant path: the tenant (or resource) does not exist there. */
  | Broken<'not_found', { readonly status: number; readonly code: string }>
  /** Another error envelope, e.g. 400 `invalid_tenant_slug`. */
  | Broken<'client_error', { readonly status: number; readonly code: string }>
  | Broken<'header_forms_differ'>;

export type BrokenVerdict = Exclude<DiagnosisVerdict, { kind: 'ok' | 'incomplete' }>;
