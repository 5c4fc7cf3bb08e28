/**
 * The one thing to do about an error, for code and for people: `kind` to branch on, `action`
 * (a few words, what the default handlers log) and `why` (the spec's debugging checklist for
 * this case). Chosen by error class and `error.code`, never by the server's message text.
 */
import { ERROR_CODES } from '../contract/index.js';
import {
  isApiError,
  isAuthenticationError,
  isConnectionError,
  isInsufficientScopeError,
  isNotFoundError,
  isPaginationError,
  isParseError,
  isPermissionDeniedError,
  isRateLimitError,
  isServerError,
  isTenantMismatchError,
  isTimeoutError,
} from './errors.js';

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
  /** A few words: what to do. */
  readonly action: string;
  /** Why, and what to check, in a sentence or three. */
  readonly why: string;
  /** For `retry_later`: how long the server asked to wait, when it said. */
  readonly afterMs?: number | undefined;
}

const step = (kind: NextStepKind, action: string, why: string, afterMs?: number): NextStep => ({ kind, action, why, afterMs });

/** `repairs` for `/tenants/x/repairs`, else the path itself (its end, when long: `action` stays short). */
function resourceOf(path: string): string {
  const name = /^\/tenants\/[^/]+\/([^/?]+)/.exec(path)?.[1] ?? path;
  return name.length > 40 ? `…${name.slice(-39)}` : name;
}

function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)} s`;
}

function refusal(error: { readonly code: string | undefined; readonly path: string; readonly tenant: string | undefined; readonly status: number | undefined }): NextStep {
  const said = `${error.status ?? '-'} ${error.code ?? '(no code)'}`;
  if (isTenantMismatchError(error)) {
    return step('fix_tenant', "use that tenant's key or the right slug",
      `${said}: the tenant in the URL ("${error.tenant ?? '?'}") is not the tenant this key is assigned to. Check the tenant slug in your config, or use that tenant's key or a platform key.`);
  }
  if (error.code === ERROR_CODES.platformKeyRequired) {
    return step('use_platform_key', 'use a platform key',
      `${said}: ${error.path} is a platform path, and platform paths accept platform keys only. Call it with a platform key, or use the tenant endpoints with this key.`);
  }
  const resource = resourceOf(error.path);
  if (isInsufficientScopeError(error)) {
    return step('request_scope', `use a key whose scope covers ${resource}`,
      `${said}: the key is valid, but its scope does not include ${resource}. Use a key whose scope covers it, or ask for the scope to be added.`);
  }
  return step('request_scope', `use a key allowed to read ${resource}`,
    `${said}: the key is valid but may not make this call. Check the key's kind (platform or tenant) and scope, and that the tenant matches ("${error.tenant ?? '-'}").`);
}

/** The action an error calls for. Anything that is not the client's error is `investigate`. */
export function nextStep(error: unknown): NextStep {
  if (!isApiError(error)) return step('investigate', 'investigate', error instanceof Error ? error.message : String(error));
  // The guards below test `value`, typed unknown: the classes are alike in shape, so testing
  // `error` (an ApiError) would narrow the other branches to `never`.
  const value: unknown = error;
  const said = `${error.status ?? '-'} ${error.code ?? '(no code)'}`;
  if (isAuthenticationError(value)) {
    return step('fix_key', 'use a current key of this environment',
      `${said}: the key was not accepted. Check: 1) the host and path are right; 2) the key is current and not revoked; 3) a test key goes to the test host and a production key to production; 4) retry once with curl to rule out the client.`);
  }
  if (isPermissionDeniedError(value)) return refusal(error);
  if (isRateLimitError(value)) {
    const after = value.retryAfterMs;
    return step('retry_later', after === undefined ? 'retry later, at a lower rate' : `retry after ${seconds(after)}`,
      `${said}: rate limited after ${value.attempts} attempt(s). Reschedule the work${after === undefined ? '' : ` after ${seconds(after)}`}, and lower the request rate or maxConcurrency for this key.`, after);
  }
  if (isNotFoundError(value)) {
    return step('check_path', 'check the path and the tenant slug',
      `${said}: nothing at ${error.path}. Check the path and the tenant slug; an API may also answer 404 for a resource the key may not see.`);
  }
  if (isParseError(value)) {
    return step('fix_parse', 'fix the parse hook or report the data',
      `the response is fine by the API contract, but ${value.index === undefined ? 'its data' : `item ${value.index}`} failed your parse hook: ${value.issue}`);
  }
  if (isPaginationError(value)) return step('investigate', 'report the next-page link to the API team', error.message);
  if (isServerError(value) || isConnectionError(value) || isTimeoutError(value)) return step('retry_later', 'retry later', `${error.name}: ${error.message}`);
  return step('investigate', 'investigate', `${error.name}: ${error.message}`);
}
