/** The one thing to do about an error; `why` is the spec's debugging checklist for the case. */
import { ERROR_CODES } from '../contract/index.js';
import { type ApiError, type ErrorKind, isApiError } from './errors.js';

export type NextStepKind =
  | 'fix_key'
  | 'fix_tenant'
  | 'use_platform_key'
  | 'request_scope'
  | 'retry_later'
  | 'check_path'
  | 'fix_parse'
  | 'investigate';

export interface NextStep {
  readonly kind: NextStepKind;
  readonly action: string;
  readonly why: string;
  /** For `retry_later`: how long the server asked to wait, when it said. */
  readonly afterMs?: number | undefined;
}

/** `said` is the status and code, `r` the resource called. */
type Advice = (e: ApiError, said: string, r: string) => [NextStepKind, string, string];

const retryLater: Advice = (e) => ['retry_later', 'retry later', `${e.name}: ${e.message}`];

const ADVICE: Partial<Record<ErrorKind, Advice>> = {
  unauthorized: (_e, said) => [
    'fix_key',
    'use a current key of this environment',
    `${said}: the key was not accepted. Check: 1) the host and path are right; 2) the key is current and not revoked; 3) a test key goes to the test host and a production key to production; 4) retry once with curl to rule out the client.`,
  ],
  tenant_mismatch: (e, said) => [
    'fix_tenant',
    "use that tenant's key or the right slug",
    `${said}: the tenant in the URL ("${e.tenant ?? '?'}") is not the tenant this key is assigned to. Check the tenant slug in your config, or use that tenant's key or a platform key.`,
  ],
  insufficient_scope: (_e, said, r) => [
    'request_scope',
    `use a key whose scope covers ${r}`,
    `${said}: the key is valid, but its scope does not include ${r}. Use a key whose scope covers it, or ask for the scope to be added.`,
  ],
  forbidden: (e, said, r) =>
    e.code === ERROR_CODES.platformKeyRequired
      ? [
          'use_platform_key',
          'use a platform key',
          `${said}: ${e.path} is a platform path, and platform paths accept platform keys only.`,
        ]
      : [
          'request_scope',
          `use a key allowed to read ${r}`,
          `${said}: the key is valid but may not make this call. Check its kind (platform or tenant), scope and tenant ("${e.tenant ?? '-'}").`,
        ],
  rate_limited: (e, said) => {
    const after =
      e.retryAfterMs === undefined ? '' : ` after ${Math.ceil(e.retryAfterMs / 1000)} s`;
    const why = `${said}: rate limited after ${e.attempts} attempt(s). Reschedule the work${after}, and lower the request rate for this key.`;
    return ['retry_later', after ? `retry${after}` : 'retry later, at a lower rate', why];
  },
  not_found: (e, said) => [
    'check_path',
    'check the path and the tenant slug',
    `${said}: nothing at ${e.path}. Check the path and the tenant slug; an API may also answer 404 for a resource the key may not see.`,
  ],
  parse_failed: (e) => [
    'fix_parse',
    'fix the parse hook or report the data',
    `the response is fine by the contract, but ${e.index === undefined ? 'its data' : `item ${e.index}`} failed your parse hook: ${e.issue ?? ''}`,
  ],
  server_error: retryLater,
  connection_error: retryLater,
  tls_error: retryLater,
  timeout: retryLater,
};

/** Anything that is not the client's error is `investigate`. */
export function nextStep(error: unknown): NextStep {
  if (!isApiError(error))
    return {
      kind: 'investigate',
      action: 'investigate',
      why: error instanceof Error ? error.message : String(error),
    };
  const resource = /^\/tenants\/[^/]+\/([^/?]+)/.exec(error.path)?.[1] ?? error.path;
  const advice =
    ADVICE[error.kind] ?? ((e) => ['investigate', 'investigate', `${e.name}: ${e.message}`]);
  const [kind, action, why] = advice(
    error,
    `${error.status ?? '-'} ${error.code ?? '(no code)'}`,
    resource,
  );
  return {
    kind,
    action,
    why,
    afterMs: error.kind === 'rate_limited' ? error.retryAfterMs : undefined,
  };
}
