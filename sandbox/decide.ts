/**
 * The sandbox's answer to one request, as a pure function of the request and the sandbox
 * state: routing, authentication, access rules, rate limiting and the data, each spoken in the
 * state's dialect, and the answers below the API (a wrong Host, an unmet Expect, what Node's
 * parser rejected). I/O lives in server.ts; faults are layered on top in faults/.
 */
import { BASE_PATH, ERROR_CODES, type Envelope, type ErrorCode, scopeForResource } from '../api/contract/index.js';
import {
  ALLOWED_METHODS,
  ERROR_STATUS,
  type Refusal,
  type RefusalAnswer,
  type Route,
  errorEnvelope,
  readPresentedKey,
  refusalAnswer,
} from '../api/contract/server/index.js';
import type { Dialect } from './dialect/index.js';
import type { DemoKey } from './model.js';
import { type RateVerdict, rateLimitHeaders } from './rate-limit.js';
import type { Reply } from './respond.js';
import { type SandboxState, routeOf } from './state.js';

export type { Reply, SandboxState };

/** The Polish error messages the sandbox sends (spec §2: messages are in Polish). */
const MESSAGES: Readonly<Record<ErrorCode, string>> = {
  unauthorized: 'Nieprawidłowy, unieważniony lub brakujący klucz API.',
  tenant_key_tenant_mismatch: 'Klucz najemcy jest przypisany do innego najemcy niż ten w ścieżce.',
  insufficient_scope: 'Zakres klucza nie obejmuje tego zasobu.',
  platform_key_required: 'Ścieżki /platform/ są dostępne wyłącznie dla kluczy platformy.',
  rate_limited: 'Przekroczono limit żądań dla tego klucza. Spróbuj ponownie później.',
  not_found: 'Nie znaleziono zasobu.',
  method_not_allowed: 'Niedozwolona metoda HTTP. API obsługuje wyłącznie GET.',
  invalid_tenant_slug: 'Nieprawidłowy identyfikator najemcy w ścieżce.',
  bad_request: 'Nieprawidłowe żądanie HTTP.',
  internal_error: 'Wewnętrzny błąd serwera.',
};

export function messageFor(code: ErrorCode, detail?: string): string {
  return detail ? `${MESSAGES[code]} ${detail}` : MESSAGES[code];
}

/** A refusal answered as `not_found` reads exactly like a missing resource, so the message cannot give away what the status hides. */
function refusalMessage(refusal: Refusal, answer: RefusalAnswer, detail?: string): string {
  if (answer.code === 'not_found') return MESSAGES.not_found;
  switch (refusal) {
    case 'missing_key':
    case 'invalid_key':
      return messageFor('unauthorized', detail);
    case 'tenant_mismatch':
      return MESSAGES.tenant_key_tenant_mismatch;
    case 'scope':
      return answer.code === 'insufficient_scope' ? MESSAGES.insufficient_scope : 'Brak uprawnień do tego zasobu.';
    case 'platform_refused':
      return MESSAGES.platform_key_required;
  }
}

export interface DecideInput {
  readonly method: string;
  /** Path without query; undefined when the request target could not be read. */
  readonly pathname: string | undefined;
  /** `1.1`, `1.0`: an HTTP/1.1 request must carry a Host. */
  readonly httpVersion: string;
  /** One entry per header line (Node's `req.headersDistinct`), so a repeated header is seen, not joined. */
  readonly headers: Record<string, string[] | undefined>;
  /** Fault `isolation-breach`: tenant keys may read other tenants. */
  readonly breach: boolean;
  /** Counts one request against a key; undefined when rate limiting is off. */
  readonly rateLimit?: (key: DemoKey) => RateVerdict;
}

type Headers = Readonly<Record<string, string>>;

/** How the message names a key header: as the spec writes it. */
const KEY_HEADER_NAMES = { 'x-api-key': 'x-api-key', authorization: 'Authorization' } as const;

function reply(status: number, envelope: Envelope, headers: Headers = {}, keyAlias?: string): Reply {
  return { status, envelope, headers, ...(keyAlias ? { keyAlias } : {}) };
}

export function fail(code: ErrorCode, detail?: string, headers: Headers = {}, keyAlias?: string): Reply {
  return reply(ERROR_STATUS[code], errorEnvelope(code, messageFor(code, detail)), headers, keyAlias);
}

/** Below the API: `bad_request` under the status HTTP names. */
export function badRequestReply(status: number, detail?: string): Reply {
  return reply(status, errorEnvelope(ERROR_CODES.badRequest, messageFor(ERROR_CODES.badRequest, detail)));
}

/** RFC 9112 §3.2: 400 to an HTTP/1.1 request without a Host, and to any with more than one (one entry per line). */
export function hostProblem(httpVersion: string, hosts: readonly string[] | undefined): string | undefined {
  if (hosts !== undefined && hosts.length > 1) return 'Nagłówek Host podano więcej niż raz.';
  if (hosts === undefined && httpVersion === '1.1') return 'Żądanie HTTP/1.1 musi zawierać nagłówek Host.';
  return undefined;
}

/** What Node's parser rejected before a handler could answer, with the status of Node's own bare answer (400 for the rest). */
const CLIENT_ERRORS: Readonly<Record<string, readonly [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'Nagłówki żądania są zbyt duże.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Rozszerzenia fragmentów treści (chunked) są zbyt duże.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Żądanie nie dotarło w całości na czas.'],
};

export function clientErrorReply(errorCode: string | undefined): Reply {
  const [status, detail] = CLIENT_ERRORS[errorCode ?? ''] ?? [400];
  return badRequestReply(status, detail);
}

function refuse(dialect: Dialect, refusal: Refusal, detail?: string, headers: Headers = {}, keyAlias?: string): Reply {
  const answer = refusalAnswer(refusal, dialect);
  return reply(answer.status, errorEnvelope(answer.code, refusalMessage(refusal, answer, detail)), headers, keyAlias);
}

const MALFORMED_DETAIL = {
  two_keys: 'Podano dwa nagłówki z kluczem (x-api-key i Authorization), które nie niosą tego samego klucza; podaj klucz w jednym z nich.',
  not_bearer: 'Nagłówek Authorization nie ma postaci "Bearer <klucz>".',
} as const;

/** The key presented, or its refusal; a key header sent twice refuses the request (which one is the key?). */
function authenticate(headers: DecideInput['headers'], { keysByValue, dialect }: SandboxState): DemoKey | Reply {
  const presented = readPresentedKey(headers);
  if (presented.kind === 'repeated') {
    const detail = `Nagłówek ${KEY_HEADER_NAMES[presented.header]} podano więcej niż raz; klucz podaje się w jednym nagłówku.`;
    return badRequestReply(ERROR_STATUS.bad_request, detail);
  }
  if (presented.kind === 'none') return refuse(dialect, 'missing_key', 'Nie podano klucza (nagłówek x-api-key lub Authorization: Bearer).');
  if (presented.kind === 'malformed') return refuse(dialect, 'invalid_key', MALFORMED_DETAIL[presented.problem]);
  const key = keysByValue.get(presented.key);
  if (!key) return refuse(dialect, 'invalid_key', 'Nieznany klucz.');
  // The request log names a revoked key's alias.
  return key.revoked ? refuse(dialect, 'invalid_key', 'Klucz został unieważniony.', {}, key.alias) : key;
}

/** Every route that needs a key; a malformed slug too, so the key is judged first (spec §5.6). */
type KeyedRoute = Extract<Route, { kind: 'index' | 'platform' | 'tenant' | 'invalid_tenant' }>;

/** The access rules of spec §4-5, in the order the spec implies: tenant match before scope. */
function accessDenied(route: KeyedRoute, key: DemoKey, breach: boolean): Refusal | undefined {
  if (route.kind === 'index') return undefined;
  if (route.kind === 'platform') {
    if (key.kind !== 'platform') return 'platform_refused';
    return key.scopes.includes('platform') ? undefined : 'scope';
  }
  if (key.kind === 'tenant' && key.tenant !== route.tenant && !breach) return 'tenant_mismatch';
  // A malformed slug names no resource to scope: its 400 comes next.
  if (route.kind === 'invalid_tenant') return undefined;
  return key.scopes.includes(scopeForResource(route.resource)) ? undefined : 'scope';
}

/** The envelope a route names, or why there is none. */
function routeData(route: Exclude<KeyedRoute, { kind: 'invalid_tenant' }>, state: SandboxState): Envelope | string {
  if (route.kind === 'index') return state.index;
  if (route.kind === 'tenant') return state.tenants.get(route.tenant)?.[route.resource] ?? `Nie ma najemcy "${route.tenant}".`;
  return state.platform.get(route.subpath) ?? `Nieznana ścieżka platformy: /platform/${route.subpath}.`;
}

/** A route that needs a key: authentication, the rate limit, access, then the data. */
function keyed(route: KeyedRoute, input: DecideInput, state: SandboxState): Reply {
  const { dialect } = state;
  const key = authenticate(input.headers, state);
  if ('status' in key) return key;
  const verdict = input.rateLimit?.(key);
  const limitHeaders = verdict ? rateLimitHeaders(dialect.rateLimitHeaders, verdict) : {};
  if (verdict && !verdict.allowed) return fail(ERROR_CODES.rateLimited, undefined, limitHeaders, key.alias);
  const denied = accessDenied(route, key, input.breach);
  if (denied) return refuse(dialect, denied, undefined, limitHeaders, key.alias);
  if (route.kind === 'invalid_tenant') return fail(ERROR_CODES.invalidTenantSlug, undefined, limitHeaders, key.alias);
  const envelope = routeData(route, state);
  if (typeof envelope === 'string') return fail(ERROR_CODES.notFound, envelope, limitHeaders, key.alias);
  return reply(200, envelope, limitHeaders, key.alias);
}

export function decide(input: DecideInput, state: SandboxState): Reply {
  const { dialect } = state;
  // Below the API: Node no longer refuses these itself (`requireHostHeader: false`), so they get the envelope.
  const hostIssue = hostProblem(input.httpVersion, input.headers['host']);
  if (hostIssue) return badRequestReply(ERROR_STATUS.bad_request, hostIssue);
  if (!(ALLOWED_METHODS as readonly string[]).includes(input.method)) {
    return fail(ERROR_CODES.methodNotAllowed, undefined, { allow: ALLOWED_METHODS.join(', ') });
  }
  const route = routeOf(input.pathname, state);
  if (route.kind === 'unknown')
    return fail(ERROR_CODES.notFound, `Endpointy API v1 zaczynają się od ${BASE_PATH}/ (zob. ${BASE_PATH}/docs).`);
  if (route.kind === 'docs') return reply(200, state.docs);
  // A public index ignores a presented key: it is neither checked nor counted.
  if (route.kind === 'index' && dialect.index === 'public') return reply(200, state.index);
  return keyed(route, input, state);
}
