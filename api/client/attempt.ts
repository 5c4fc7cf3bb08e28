/**
 * One HTTP attempt against API v1, no retries: send, read a capped body, parse the envelope and
 * classify. It never throws; every way it can end is in the result. The client's retry loop
 * stands on it, and so does anything that must see one exact answer (a health check, the
 * checklist). The time budget covers queueing for a connection, connecting, headers and body.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import {
  type AnswerKind,
  type AuthScheme,
  type EndpointId,
  type EnvelopeParse,
  type ResponseClass,
  ENDPOINTS,
  REQUEST_ID_HEADER,
  SERVER_TEXT_LIMITS,
  authHeader,
  classifyResponse,
  joinUrl,
  parseEnvelope,
  serverText,
} from '../contract/index.js';
import { type ApiKey, redactSecrets } from './api-key.js';
import type { TimeoutPhase } from './errors.js';
import { scrubKeyEchoes } from './key-echo.js';

export type { TimeoutPhase } from './errors.js';

/**
 * The version of this client's code, in its `User-Agent`. It changes when the client does, not with
 * every toolkit release, so a release that changes no client code changes no file of it.
 */
export const CLIENT_VERSION = '0.2.0';
export const USER_AGENT = `repair-service-client/${CLIENT_VERSION} node/${process.versions.node}`;

/** A W3C `traceparent` (version 00, sampled): `traceId` kept across a call's attempts, a new span each. */
export function traceparent(traceId: string = randomUUID().replace(/-/g, '')): string {
  return `00-${traceId}-${randomUUID().replace(/-/g, '').slice(0, 16)}-01`;
}

/** A success body above this is refused: a runaway response must not exhaust memory. */
export const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;
/** Error bodies are read only this far: enough for any envelope, not for a runaway page. */
export const ERROR_BODY_BYTES = 64 * 1024;
const EXCERPT_CHARS = 512;

export interface AttemptRequest {
  readonly dispatcher: Dispatcher;
  readonly baseUrl: string;
  /** Relative to `{base_url}`, e.g. `/tenants/x/clients`. */
  readonly path: string;
  /** Appended after `?`, already encoded. */
  readonly query?: string | undefined;
  /** Decides whether `data` must be a list; undefined for a path outside the spec's table. */
  readonly endpoint: EndpointId | undefined;
  /** Omitted for public calls such as `/docs`. */
  readonly key?: ApiKey | undefined;
  readonly authScheme: AuthScheme;
  /** Covers connect, headers and body together. */
  readonly timeoutMs: number;
  readonly maxBodyBytes?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Continues the caller's trace; a new one otherwise. */
  readonly traceparent?: string | undefined;
  /** Default `repair-service-client/<version> node/<version>`. */
  readonly userAgent?: string | undefined;
}

export type TransportFailure =
  | { readonly kind: 'timeout'; readonly phase: TimeoutPhase; readonly message: string }
  | { readonly kind: 'connection'; readonly code: string; readonly message: string }
  | { readonly kind: 'tls'; readonly code: string; readonly message: string }
  | { readonly kind: 'body_too_large'; readonly limitBytes: number; readonly message: string }
  | { readonly kind: 'aborted'; readonly reason: unknown; readonly message: string };

export interface AttemptTimings {
  readonly headersMs: number | undefined;
  readonly totalMs: number;
}

export interface AttemptResponse {
  readonly kind: 'response';
  /** The W3C trace id the attempt was sent with: what support gives the API team with the request id. */
  readonly traceId: string;
  readonly status: number;
  /** Lowercase names; a value the key was echoed in is scrubbed. */
  readonly headers: Readonly<Record<string, string>>;
  readonly envelope: EnvelopeParse;
  readonly classification: ResponseClass;
  readonly requestId: string | undefined;
  readonly bodyBytes: number;
  /** The first characters of the body, key scrubbed (also its escaped and partial forms when not data). */
  readonly bodyExcerpt: string;
  readonly timings: AttemptTimings;
}

export interface AttemptFailure {
  readonly kind: 'failure';
  readonly traceId: string;
  readonly failure: TransportFailure;
  readonly timings: AttemptTimings;
}

export type AttemptResult = AttemptResponse | AttemptFailure;

/** Codes after which a new attempt may succeed: the connection failed, not the request. */
const RETRYABLE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH']);
const LIST_ENDPOINTS: ReadonlySet<EndpointId | undefined> = new Set(ENDPOINTS.filter((e) => e.list).map((e) => e.id));

class BodyTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`response body exceeds ${limitBytes} bytes`);
  }
}

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error, depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth += 1, e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

const isTlsCode = (code: string): boolean => /^ERR_(TLS|SSL)|CERT|^UNABLE_TO_(VERIFY|GET_ISSUER)/.test(code);

/** Maps what undici or Node threw to a closed set of failures (codes read along the `cause` chain). */
export function transportFailureFrom(error: unknown): TransportFailure {
  const message = error instanceof Error ? error.message : String(error);
  const codes = codesOf(error);
  for (const code of codes) {
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return { kind: 'timeout', phase: 'connect', message };
    if (code === 'UND_ERR_HEADERS_TIMEOUT') return { kind: 'timeout', phase: 'headers', message };
    if (code === 'UND_ERR_BODY_TIMEOUT') return { kind: 'timeout', phase: 'body', message };
    if (isTlsCode(code)) return { kind: 'tls', code, message };
  }
  return { kind: 'connection', code: codes.find((c) => c !== 'UND_ERR_SOCKET') ?? codes[0] ?? 'UNKNOWN', message };
}

export function isRetryableFailure(failure: TransportFailure): boolean {
  return failure.kind === 'timeout' || (failure.kind === 'connection' && RETRYABLE_CODES.has(failure.code));
}

/**
 * Lowercase names, one string each; a key echoed in a header value is replaced by its hint. The
 * common case (no repeated header, no echo) hands undici's object on without a copy.
 */
function headersOf(raw: Record<string, string | string[] | undefined>, key: ApiKey | undefined): Record<string, string> {
  const secret = key?.reveal();
  let plain = true;
  for (const name in raw) {
    const value = raw[name];
    if (typeof value !== 'string' || (secret !== undefined && value.includes(secret))) plain = false;
  }
  if (plain) return raw as Record<string, string>;
  const out: Record<string, string> = {};
  for (const name in raw) {
    const value = raw[name];
    if (value !== undefined) out[name] = key ? redactSecrets(Array.isArray(value) ? value.join(', ') : value, [key]) : String(value);
  }
  return out;
}

/** Reads at most `limit` bytes; a success over it is refused, an error body is cut there. */
async function readCapped(body: Dispatcher.ResponseData['body'], declared: number, limit: number, refuse: boolean): Promise<{ text: string; bytes: number }> {
  // A declared length within the cap is enforced by undici: one read, no chunk bookkeeping.
  if (Number.isSafeInteger(declared) && declared <= limit) return { text: await body.text(), bytes: declared };
  if (refuse && declared > limit) {
    body.destroy();
    throw new BodyTooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) {
      body.destroy();
      if (refuse) throw new BodyTooLarge(limit);
      chunks.push(chunk.subarray(0, chunk.length - (bytes - limit)));
      break;
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes };
}

function requestHeaders(req: AttemptRequest, trace: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': req.userAgent ?? USER_AGENT, traceparent: trace };
  if (req.key) {
    const auth = authHeader(req.authScheme, req.key.reveal());
    headers[auth.name] = auth.value;
  }
  return headers;
}

function failureOf(error: unknown, req: AttemptRequest, timedOut: boolean, inBody: boolean): TransportFailure {
  if (error instanceof BodyTooLarge) return { kind: 'body_too_large', limitBytes: error.limitBytes, message: error.message };
  if (req.signal?.aborted) return { kind: 'aborted', reason: req.signal.reason, message: 'aborted by caller' };
  if (timedOut) return { kind: 'timeout', phase: inBody ? 'body' : 'headers', message: `no complete response within ${Math.round(req.timeoutMs)} ms` };
  const failure = transportFailureFrom(error);
  return req.key && failure.kind !== 'body_too_large' && failure.kind !== 'aborted' ? { ...failure, message: redactSecrets(failure.message, [req.key]) } : failure;
}

/** Sends one GET; `timeoutMs` covers queueing for a connection, connecting, headers and body. */
export async function sendAttempt(req: AttemptRequest): Promise<AttemptResult> {
  const started = performance.now();
  const timings = (headersAt?: number): AttemptTimings => ({ headersMs: headersAt === undefined ? undefined : headersAt - started, totalMs: performance.now() - started });
  const trace = req.traceparent ?? traceparent();
  const traceId = trace.slice(3, 35);
  if (req.signal?.aborted) return { kind: 'failure', traceId, failure: { kind: 'aborted', reason: req.signal.reason, message: 'aborted by caller' }, timings: timings() };
  // The budget is one timer and an EventEmitter, which undici takes as a signal like an
  // AbortSignal: an AbortController per attempt cost 20-40 µs a call on Node 20 (measured in
  // bench/client-overhead.ts), more than the rest of the client together.
  const deadline = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.emit('abort');
  }, Math.max(1, Math.ceil(req.timeoutMs)));
  const onAbort = (): void => void deadline.emit('abort');
  req.signal?.addEventListener('abort', onAbort, { once: true });
  let headersAt: number | undefined;
  try {
    // joinUrl's trimming only when there is a slash to trim (not the common case, on every call).
    const plain = !req.baseUrl.endsWith('/') && req.path.startsWith('/') && !req.path.startsWith('//');
    const url = (plain ? req.baseUrl + req.path : joinUrl(req.baseUrl, req.path)) + (req.query ? `?${req.query}` : '');
    const res = await request(url, { method: 'GET', dispatcher: req.dispatcher, headers: requestHeaders(req, trace), signal: deadline });
    headersAt = performance.now();
    const status = res.statusCode;
    const success = status >= 200 && status < 300;
    const headers = headersOf(res.headers, req.key);
    const declared = Number(headers['content-length'] ?? Number.NaN);
    const { text: raw, bytes } = await readCapped(res.body, declared, success ? (req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) : ERROR_BODY_BYTES, success);
    const text = req.key ? redactSecrets(raw, [req.key]) : raw;
    const parsed = parseEnvelope(text, { status, list: LIST_ENDPOINTS.has(req.endpoint) });
    const envelope = req.key ? scrubbedEnvelope(parsed, req.key) : parsed;
    const classification = classifyResponse(status, envelope, headers['location']);
    const excerpt = text.slice(0, EXCERPT_CHARS);
    const requestId = headers[REQUEST_ID_HEADER];
    return {
      kind: 'response',
      traceId,
      status,
      headers,
      envelope,
      classification,
      requestId: requestId === undefined ? undefined : serverText(requestId, SERVER_TEXT_LIMITS.header),
      bodyBytes: bytes,
      bodyExcerpt: req.key && classification.kind !== 'ok' ? scrubKeyEchoes(excerpt, [req.key]) : excerpt,
      timings: timings(headersAt),
    };
  } catch (error) {
    return { kind: 'failure', traceId, failure: failureOf(error, req, timedOut, headersAt !== undefined), timings: timings(headersAt) };
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
  }
}

/** A server may echo the key escaped, re-cased or cut short in its code or message: scrubbed too. */
function scrubbedEnvelope(parsed: EnvelopeParse, key: ApiKey): EnvelopeParse {
  if (!parsed.valid) return { ...parsed, detail: scrubKeyEchoes(parsed.detail, [key]) };
  if (parsed.envelope.ok) return parsed;
  const { code, message } = parsed.envelope.error;
  return { valid: true, envelope: { ok: false, error: { code: scrubKeyEchoes(code, [key]), message: scrubKeyEchoes(message, [key]) } } };
}

/** The one reading of an attempt every tool names its answer by (see `ANSWER_KINDS`). */
export function answerKind(result: AttemptResult): AnswerKind {
  if (result.kind === 'response') return result.classification.kind;
  switch (result.failure.kind) {
    case 'timeout':
      return 'timeout';
    case 'tls':
      return 'tls_error';
    case 'body_too_large':
      return 'invalid_envelope';
    case 'connection':
    case 'aborted':
      return 'connection_error';
  }
}
