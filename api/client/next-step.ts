/**
 * The one thing to do about an error, for code and for people: `kind` to branch on, `action` (a
 * few words) and `why` (the spec's debugging checklist for the case). Chosen by `error.kind` and
 * `error.code`, never by the server's message text.
 */
import { ERROR_CODES } from '../contract/index.js';
import { type ApiError, isApiError } from './errors.js';

export type NextStepKind = 'fix_key' | 'fix_tenant' | 'use_platform_key' | 'request_scope' | 'retry_later' | 'check_path' | 'fix_parse' | 'investigate';

export interface NextStep {
  readonly kind: NextStepKind;
  readonly action: string;
  readonly why: string;
  /** For `retry_later`: how long the server asked to wait, when it said. */
  readonly afterMs?: number | undefined;
}

/** `repairs` for `/tenants/x/repairs`, else the path. */
const resourceOf = (path: string): string => /^\/tenants\/[^/]+\/([^/?]+)/.exec(path)?.[1] ?? path;

function advice(e: ApiError): Omit<NextStep, 'afterMs'> {
  const said = `${e.status ?? '-'} ${e.code ?? '(no code)'}`;
  const resource = resourceOf(e.path);
  switch (e.kind) {
    case 'unauthorized':
      return { kind: 'fix_key', action: 'use a current key of this environment', why: `${said}: the key was not accepted. Check: 1) the host and path are right; 2) the key is current and not revoked; 3) a test key goes to the test host and a production key to production; 4) retry once with curl to rule out the client.` };
    case 'tenant_mismatch':
      return { kind: 'fix_tenant', action: "use that tenant's key or the right slug", why: `${said}: the tenant in the URL ("${e.tenant ?? '?'}") is not the tenant this key is assigned to. Check the tenant slug in your config, or use that tenant's key or a platform key.` };
    case 'insufficient_scope':
      return { kind: 'request_scope', action: `use a key whose scope covers ${resource}`, why: `${said}: the key is valid, but its scope does not include ${resource}. Use a key whose scope covers it, or ask for the scope to be added.` };
    case 'forbidden':
      return e.code === ERROR_CODES.platformKeyRequired
        ? { kind: 'use_platform_key', action: 'use a platform key', why: `${said}: ${e.path} is a platform path, and platform paths accept platform keys only.` }
        : { kind: 'request_scope', action: `use a key allowed to read ${resource}`, why: `${said}: the key is valid but may not make this call. Check the key's kind (platform or tenant) and scope, and that the tenant matches ("${e.tenant ?? '-'}").` };
    case 'rate_limited': {
      const after = e.retryAfterMs === undefined ? '' : ` after ${Math.ceil(e.retryAfterMs / 1000)} s`;
      return { kind: 'retry_later', action: after ? `retry${after}` : 'retry later, at a lower rate', why: `${said}: rate limited after ${e.attempts} attempt(s). Reschedule the work${after}, and lower the request rate for this key.` };
    }
    case 'not_found':
      return { kind: 'check_path', action: 'check the path and the tenant slug', why: `${said}: nothing at ${e.path}. Check the path and the tenant slug; an API may also answer 404 for a resource the key may not see.` };
    case 'parse_failed':
      return { kind: 'fix_parse', action: 'fix the parse hook or report the data', why: `the response is fine by the API contract, but ${e.index === undefined ? 'its data' : `item ${e.index}`} failed your parse hook: ${e.issue ?? ''}` };
    case 'server_error':
    case 'connection_error':
    case 'tls_error':
    case 'timeout':
      return { kind: 'retry_later', action: 'retry later', why: `${e.name}: ${e.message}` };
    default:
      return { kind: 'investigate', action: 'investigate', why: `${e.name}: ${e.message}` };
  }
}

/** The action an error calls for; anything that is not the client's error is `investigate`. */
export function nextStep(error: unknown): NextStep {
  if (!isApiError(error)) return { kind: 'investigate', action: 'investigate', why: error instanceof Error ? error.message : String(error) };
  return { ...advice(error), afterMs: error.kind === 'rate_limited' ? error.retryAfterMs : undefined };
}
