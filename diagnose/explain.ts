/**
 * Plain-English wording for support: every known error code (next to the server's Polish
 * message, which is shown verbatim), every transport failure and every finding.
 */
import { tlsAdvice } from '../api/checklist/index.js';
import { ERROR_CODES, type ErrorCode, isErrorCode } from '../api/contract/index.js';
import type { RetryHint, TransportFailure } from '../api/client/single-attempt.js';
import { type StopReason } from './engine.js';
import type { Finding } from './types.js';

/** A Record over ErrorCode, so a code added to the contract fails to compile until explained. */
export const CODE_EXPLANATIONS: Readonly<Record<ErrorCode, string>> = {
  unauthorized: 'the API key was not accepted: it is wrong, revoked, missing, or meant for another environment',
  tenant_key_tenant_mismatch: 'the key is a tenant key assigned to a different tenant than the one in the URL',
  insufficient_scope: "the key's scope does not include this resource",
  platform_key_required: 'only platform keys may call /platform/*; this is a tenant key',
  rate_limited: 'too many requests with this key; wait for Retry-After before calling again',
  not_found: 'the API has nothing at this path (wrong path or unknown tenant)',
  method_not_allowed: 'the API only serves GET',
  invalid_tenant_slug: "the server refuses the tenant slug's format (the spec shows none); check how this API spells its tenants",
  bad_request: 'the request was not valid HTTP (malformed request line or headers too large); check the client or proxy',
  internal_error: 'the server failed while handling the request; not a problem with the key',
};

export function explainCode(code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  return isErrorCode(code) ? CODE_EXPLANATIONS[code] : `unknown error code "${code}" (not in the API v1 contract)`;
}

/** What a connection code means, and how the host failed (`how`, the verdict's): unreachable, or (none) an answer cut short. */
export const CONNECTION_CODES: Readonly<Record<string, readonly [string, ('dns' | 'refused' | 'network')?]>> = {
  ENOTFOUND: ['DNS: the host name does not resolve', 'dns'],
  EAI_AGAIN: ['DNS: the name server did not answer (temporary DNS failure)', 'dns'],
  ECONNREFUSED: ['connection refused: nothing listens on that host and port', 'refused'],
  ECONNRESET: ['the connection was reset by the server or a proxy before a response'],
  EHOSTUNREACH: ['the host is unreachable from here (routing or firewall)', 'network'],
  ENETUNREACH: ['the network is unreachable from here', 'network'],
  UND_ERR_SOCKET: ['the socket closed before a complete response'],
};

export function explainTransport(failure: TransportFailure): string {
  switch (failure.kind) {
    case 'timeout':
      return failure.phase === 'connect'
        ? 'timed out connecting: the host does not answer on that port (firewall, wrong host or down)'
        : `timed out waiting for the response ${failure.phase === 'headers' ? 'headers' : 'body'}`;
    case 'tls':
      return `TLS failed (${failure.code}): ${tlsAdvice(failure.code) ?? 'the certificate is not trusted for this host, or the port does not speak HTTPS'}`;
    case 'connection':
      return CONNECTION_CODES[failure.code]?.[0] ?? `connection failed (${failure.code})`;
    case 'body_too_large':
      return `the response body exceeds ${failure.limitBytes} bytes`;
    case 'aborted':
      return 'the probe was interrupted';
  }
}

function explainNotApi(f: Extract<Finding, { kind: 'invalid_envelope'; status: number }>): string {
  if (f.html) {
    return `HTTP ${f.status} with an HTML page, not an API envelope: a proxy, load balancer or web server answered instead of the API (wrong path, or the API behind it is down)`;
  }
  if (f.status === 404) return `HTTP 404 without an API envelope (${f.detail}): no API at this path; check the base URL ends in /api/v1`;
  // Who answered is the verdict's to say: at the base URL not the API, on a later path the API itself.
  return `HTTP ${f.status} without a valid API envelope: ${f.detail}`;
}

/** The header a rate-limit hint was read from, as the server spelled its style. */
const HINT_HEADERS: Readonly<Record<RetryHint['source'], string>> = {
  'retry-after-ms': 'retry-after-ms',
  'retry-after': 'Retry-After',
  'ratelimit-reset': 'RateLimit-Reset',
  ratelimit: 'RateLimit',
  'x-ratelimit-reset': 'X-RateLimit-Reset',
};

/** What to pass, depending on what is known of the key: the API cannot say a key's tenant. */
function explainTenantUnknown(f: Extract<Finding, { kind: 'tenant_unknown' }>): string {
  if (f.tried.length > 0) {
    return `not checked: the key belongs to none of the tenants /docs names (${f.tried.join(', ')} each answered tenant_key_tenant_mismatch); pass --tenant SLUG, the shop the key was issued for`;
  }
  if (f.keyKind === 'platform')
    return 'not checked: a platform key may read every tenant, and /platform/ listed none; pass --tenant SLUG (any tenant)';
  const platform = f.keyKind === 'unknown' ? ' (for a platform key, --platform-path PATH lets the probe list tenants itself)' : '';
  return `not checked: the API cannot say which tenant a key belongs to, and neither the URL, /docs nor a platform listing named one; pass --tenant SLUG, the shop the key was issued for${platform}`;
}

/**
 * A tenant with a space is most likely the shop's display name pasted for its slug; the spec
 * shows no slug format, so this is a hint, never a refusal.
 */
function slugHint(tenant: string): string {
  if (!/\s/.test(tenant)) return '';
  const guess = tenant.trim().toLowerCase().replace(/\s+/g, '-');
  return ` ("${tenant}" has a space: is it the shop's name rather than its slug, e.g. "${guess}"?)`;
}

/** `request id R trace T`, what the API team searches its logs by; empty when the call carried neither. */
export function callIds(call: { readonly requestId?: string | undefined; readonly traceId?: string | undefined }): string {
  const ids = [
    call.requestId === undefined ? '' : `request id ${call.requestId}`,
    call.traceId === undefined ? '' : `trace ${call.traceId}`,
  ];
  return ids.filter((id) => id !== '').join(' ');
}

/** A day: no quota window asks for more; a longer hint is a broken server or proxy, not a wait. */
export const ABSURD_WAIT_S = 24 * 60 * 60;

/** How long a hint asks to wait, in days or years once past a day. */
export function absurdWait(seconds: number): string {
  return seconds > 365 * ABSURD_WAIT_S ? 'years' : `${Math.round(seconds / ABSURD_WAIT_S)} days`;
}

/** `retry after 30 s`, or, for a hint past a day (`Retry-After: 1e15`), that the hint is broken. */
export function retryAfterText(seconds: number): string {
  return seconds > ABSURD_WAIT_S
    ? `a broken hint: it asks to wait ${absurdWait(seconds)}, and no quota window is that long`
    : `retry after ${seconds} s`;
}

/** Why the run left calls unsent, for the rows of those calls and the verdict. */
export function explainStop(stop: StopReason): string {
  switch (stop.kind) {
    case 'host_unreachable':
      return `the host could not be reached (${stop.check}), so no other call was made`;
    case 'no_answer':
      return `${stop.checks[0]} and ${stop.checks[1]} got no answer one after the other, so the probe stopped`;
    case 'budget':
      return `the request budget (${stop.limit} per run) was spent`;
    case 'rate_limited': {
      const after = stop.hint === undefined ? 'no hint' : retryAfterText(Math.ceil(stop.hint.delayMs / 1000));
      const on = stop.path === undefined ? stop.check : `GET ${stop.path}`;
      switch (stop.why) {
        case 'no_hint':
          return `rate limited on ${on} with no hint how long to wait, so the probe stopped rather than add to the load`;
        case 'too_long':
          return `rate limited on ${on}: ${after}, longer than the probe waits (--max-wait), so it stopped`;
        case 'still_limited':
          return `still rate limited on ${on} after one wait as asked (now: ${after}), so the probe stopped`;
        case 'budget':
          return `rate limited on ${on}, and a retry would pass the request budget, so the probe stopped`;
      }
    }
  }
}

export function explainFinding(finding: Finding): string {
  if ('failure' in finding) return explainTransport(finding.failure);
  switch (finding.kind) {
    case 'ok':
      return finding.note ?? 'works';
    case 'base_path_wrong':
      return `the base URL's path is "${finding.path}" but must end in /api/v1`;
    case 'invalid_envelope':
      return explainNotApi(finding);
    case 'not_found':
      return `HTTP ${finding.status} ${finding.code} from the API: nothing at this path; check the base URL ends in /api/v1 and the tenant slug exists`;
    case 'redirect':
      return `HTTP ${finding.status} redirect to ${finding.location ?? '(no Location)'}: the base URL is not the API's address (http vs https, or a moved host)`;
    case 'server_error':
      return finding.html
        ? `HTTP ${finding.status} with an HTML page: a proxy or gateway in front of the API answered; the API behind it is down or unreachable, not a key problem`
        : `HTTP ${finding.status}: the server failed; not a problem with the key, retry later or escalate`;
    case 'rate_limited':
      return finding.retryAfterS === undefined || finding.hintSource === undefined
        ? 'HTTP 429: rate limited; no Retry-After (or rate-limit reset) header was sent, wait and retry'
        : `HTTP 429: rate limited; ${retryAfterText(finding.retryAfterS)} (${HINT_HEADERS[finding.hintSource]})`;
    case 'unauthorized':
      return finding.testKeyOnProduction
        ? `${CODE_EXPLANATIONS.unauthorized}. This is a TEST key (its prefix says so) and the URL looks like production: use the production key there`
        : CODE_EXPLANATIONS.unauthorized;
    case 'key_kind':
      return finding.keyKind === 'platform'
        ? 'platform key: /platform/* answers, so it may call platform and every tenant endpoint'
        : 'tenant key: /platform/* is refused, as expected; it may call only its own tenant';
    case 'key_kind_unknown':
      return `kind not determined: ${finding.why}`;
    case 'tenant_mismatch':
      return finding.keyTenant !== undefined && finding.keyTenant !== finding.urlTenant
        ? `the URL asks for tenant "${finding.urlTenant}" but the key belongs to tenant "${finding.keyTenant}": call /tenants/${finding.keyTenant}/... or use ${finding.urlTenant}'s key`
        : `the key is a tenant key for another tenant, not "${finding.urlTenant}"; the API cannot say which one, ask which shop the key was issued for${slugHint(finding.urlTenant)}`;
    case 'tenant_unknown':
      return explainTenantUnknown(finding);
    case 'insufficient_scope': {
      const code =
        finding.code === ERROR_CODES.insufficientScope
          ? ''
          : `refused with HTTP ${finding.status} ${finding.code}, this API's scope refusal; `;
      const may = finding.readable.length > 0 ? `it may read ${finding.readable.join(', ')}` : 'nor any other resource';
      return `the key's scope does not include ${finding.resource ?? 'this resource'} (${code}${may})`;
    }
    case 'header_forms_differ':
      return `the two header forms give different answers (${finding.primary} vs ${finding.other}); the server or a proxy drops or rewrites one of them`;
    case 'docs_failed':
      return `GET /docs gave HTTP ${finding.status}${finding.html ? ' with an HTML page: a proxy or gateway in front of it failed' : ': the server failed on it'}; the key's checks go on without it (report it to the API on-call)`;
    case 'no_rate_limit_headers':
      return 'the server sent no rate-limit headers (optional in the spec)';
    case 'forbidden':
    case 'client_error':
      return `HTTP ${finding.status} ${finding.code}: ${explainCode(finding.code) ?? ''}`;
    case 'not_checked':
      return `not run: ${finding.because}`;
  }
}
