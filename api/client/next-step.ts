/** The one thing to do about an error; `why` is the spec's debugging checklist for the case. */
import { ERROR_CODES } from '../contract/index.js';
import { type AnyApiError, isApiError } from './errors.js';

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
  /** For a 429: how long to wait (`RateLimitError.retryAfterMs`). */
  readonly afterMs?: number | undefined;
}

/** `said` is the status and code, `r` the resource called. */
function advice(e: AnyApiError, said: string, r: string): [NextStepKind, string, string] {
  switch (e.kind) {
    case 'unauthorized':
      return [
        'fix_key',
        'use a current key of this environment',
        `${said}: the key was not accepted. Check: 1) the host and path are right; 2) the key is ` +
          'current and not revoked; 3) a test key goes to the test host and a production key to ' +
          'production; 4) retry once with curl to rule out the client.',
      ];
    case 'tenant_mismatch':
      return [
        'fix_tenant',
        "use that tenant's key or the right slug",
        `${said}: the tenant in the URL ("${e.tenant ?? '?'}") is not the tenant this key is ` +
          "assigned to. Check the tenant slug in your config, or use that tenant's key or a " +
          'platform key.',
      ];
    case 'insufficient_scope':
      return [
        'request_scope',
        `use a key whose scope covers ${r}`,
        `${said}: the key is valid, but its scope does not include ${r}. Use a key whose scope ` +
          'covers it, or ask for the scope to be added.',
      ];
    case 'forbidden':
      if (e.code === ERROR_CODES.platformKeyRequired)
        return [
          'use_platform_key',
          'use a platform key',
          `${said}: ${e.path} is a platform path, and platform paths accept platform keys only.`,
        ];
      return [
        'request_scope',
        `use a key allowed to read ${r}`,
        `${said}: the key is valid but may not make this call. Check its kind (platform or ` +
          `tenant), scope and tenant ("${e.tenant ?? '-'}").`,
      ];
    case 'rate_limited': {
      const after = `after ${Math.ceil(e.retryAfterMs / 1000)} s`;
      const why =
        `${said}: rate limited after ${e.attempts} attempt(s). Reschedule the work ${after}, ` +
        'and lower the request rate for this key.';
      const slower = e.retryAfterBasis === 'hint' ? '' : ', at a lower rate';
      return ['retry_later', `retry ${after}${slower}`, why];
    }
    case 'not_found':
      return [
        'check_path',
        'check the path and the tenant slug',
        `${said}: nothing at ${e.path}. Check the path and the tenant slug; an API may also ` +
          'answer 404 for a resource the key may not see.',
      ];
    case 'parse_failed': {
      const what = e.index === undefined ? 'its data' : `item ${e.index}`;
      const why = `the response is fine by the contract, but ${what} failed your parse hook`;
      return ['fix_parse', 'fix the parse hook or report the data', `${why}: ${e.issue}`];
    }
    case 'server_error':
    case 'connection_error':
    case 'tls_error':
    case 'timeout':
      return ['retry_later', 'retry later', `${e.name}: ${e.message}`];
    default:
      return ['investigate', 'investigate', `${e.name}: ${e.message}`];
  }
}

/** Anything that is not the client's error is `investigate`. */
export function nextStep(error: unknown): NextStep {
  if (!isApiError(error)) {
    const why = error instanceof Error ? error.message : String(error);
    return { kind: 'investigate', action: 'investigate', why };
  }
  const resource = /^\/tenants\/[^/]+\/([^/?]+)/.exec(error.path)?.[1] ?? error.path;
  const said = `${error.status ?? '-'} ${error.code ?? '(no code)'}`;
  const [kind, action, why] = advice(error, said, resource);
  const afterMs = error.kind === 'rate_limited' ? error.retryAfterMs : undefined;
  return { kind, action, why, afterMs };
}
