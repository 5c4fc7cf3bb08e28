/**
 * One HTTP attempt against API v1, with no retries: send, read a capped body, parse the
 * envelope and classify. The client's retry loop stands on this, and so does anything that
 * must see one exact answer (a health check, the debugging checklist).
 */
import type { Dispatcher } from 'undici';
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
import { AttemptDeadline, type DeadlineTimer, requestWithin } from './attempt-deadline.js';
import { scrubKeyEchoes } from './key-echo.js';
import type { EncodedQuery } from './query.js';
import { type TimeoutPhase, type TransportFailure, transportFailureFrom } from './transport-failure.js';

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
  /** Appended after `?`; built by `encodeQuery`, which refuses credential-like names. */
  readonly query?: EncodedQuery | undefined;
  /** Decides whether `data` must be a list; undefined for a path outside the spec's endpoint table. */
  readonly endpoint: EndpointId | undefined;
  /** Omitted for public calls such as `/docs`. */
  readonly key?: ApiKey | undefined;
  readonly authScheme: AuthScheme;
  /** Covers headers and body together. */
  readonly timeoutMs: number;
  readonly maxBodyBytes?: number;
  readonly signal?: AbortSignal | undefined;
  readonly headers?: Readonly<Record<string, string>>;
  /** Monotonic milliseconds; injectable for tests. */
  readonly now?: () => number;
  /** A client's shared deadline timer; without one the attempt arms a timer of its own. */
  readonly deadlineTimer?: DeadlineTimer | undefined;
}

export interface AttemptTimings {
  readonly headersMs: number | undefined;
  readonly totalMs: number;
}

export interface AttemptResponse {
  readonly kind: 'response';
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly envelope: EnvelopeParse;
  readonly classification: ResponseClass;
  readonly requestId: string | undefined;
  readonly bodyBytes: number;
  /**
   * First characters of the body, for debug views. The exact key is scrubbed from it; for an
   * answer that is not a success, also its escaped, re-cased and partial forms (`scrubKeyEchoes`).
   */
  readonly bodyExcerpt: string;
  readonly timings: AttemptTimings;
}

export interface AttemptFailure {
  readonly kind: 'failure';
  readonly failure: TransportFailure;
  readonly timings: AttemptTimings;
}

export type AttemptResult = AttemptResponse | AttemptFailure;

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  // undici hands over lowercase names with string values except for repeated headers; only
  // then is a copy needed, which keeps the common path free of allocations.
  let plain = true;
  for (const name in raw) {
    const value = raw[name];
    if (typeof value !== 'string' || name !== name.toLowerCase()) {
      plain = false;
      break;
    }
  }
  if (plain) return raw as Record<string, string>;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Everything an attempt returns is built from what the server sent, so a server that echoes
 * the key (an error page quoting it, a request id made of it) would carry it into error
 * messages, logs and debug views. Scrubbing once here, at the edge, before
 * the body is parsed or cut into excerpts, covers every consumer; a cut excerpt can no longer
 * hold a fragment of the key. Cost: one `includes` over the body and over each header value.
 */
function scrubHeaders(headers: Record<string, string>, key: ApiKey | undefined): Record<string, string> {
  if (!key) return headers;
  const value = key.reveal();
  let echoed = false;
  for (const name in headers) {
    if (headers[name]?.includes(value)) {
      echoed = true;
      break;
    }
  }
  if (!echoed) return headers;
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(headers)) out[name] = redactSecrets(text, [key]);
  return out;
}

/**
 * The exact key is already gone from the body text, but an error code or message written with
 * JSON escapes parses back to it, and a server may quote it upper-cased or cut short. The
 * server's strings are scrubbed again once parsed (they are short by then: `SERVER_TEXT_LIMITS`).
 */
function scrubParsed(envelope: EnvelopeParse, key: ApiKey): EnvelopeParse {
  if (!envelope.valid) return { ...envelope, detail: scrubKeyEchoes(envelope.detail, [key]) };
  if (envelope.envelope.ok) return envelope;
  const { code, message } = envelope.envelope.error;
  return { valid: true, envelope: { ok: false, error: { code: scrubKeyEchoes(code, [key]), message: scrubKeyEchoes(message, [key]) } } };
}

class BodyTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`response body exceeds ${limitBytes} bytes`);
  }
}

/** The declared length when it is within the cap: then undici enforces it and `body.text()` suffices. */
function knownLengthWithin(headers: Record<string, string>, limit: number): number | undefined {
  const declared = Number(headers['content-length'] ?? Number.NaN);
  return Number.isSafeInteger(declared) && declared <= limit ? declared : undefined;
}

/** Reads a body of unknown or too large a length, chunk by chunk up to the cap. */
async function readCapped(body: Dispatcher.ResponseData['body'], headers: Record<string, string>, limit: number, refuseOverLimit: boolean): Promise<{ text: string; bytes: number }> {
  const declared = Number(headers['content-length'] ?? Number.NaN);
  if (refuseOverLimit && Number.isSafeInteger(declared) && declared > limit) {
    body.destroy();
    throw new BodyTooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    bytes += buf.length;
    if (bytes > limit) {
      body.destroy();
      if (refuseOverLimit) throw new BodyTooLarge(limit);
      chunks.push(buf.subarray(0, buf.length - (bytes - limit)));
      break;
    }
    chunks.push(buf);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes };
}

function buildHeaders(req: AttemptRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  if (req.key) {
    const auth = authHeader(req.authScheme, req.key.reveal());
    headers[auth.name] = auth.value;
  }
  return headers;
}

/** Whether `data` must be an array, per endpoint: looked up once, not per call. */
const LIST_ENDPOINTS: ReadonlySet<EndpointId | undefined> = new Set(ENDPOINTS.filter((e) => e.list).map((e) => e.id));

function timingsOf(started: number, headersAt: number | undefined, now: () => number): AttemptTimings {
  return { headersMs: headersAt === undefined ? undefined : headersAt - started, totalMs: now() - started };
}

function failureOf(error: unknown, req: AttemptRequest, deadline: AttemptDeadline, inBody: boolean): TransportFailure {
  if (error instanceof BodyTooLarge) return { kind: 'body_too_large', limitBytes: error.limitBytes, message: error.message };
  if (req.signal?.aborted) return { kind: 'aborted', reason: req.signal.reason, message: 'aborted by caller' };
  if (deadline.timedOut) {
    const phase: TimeoutPhase = inBody ? 'body' : 'headers';
    return { kind: 'timeout', phase, message: `no complete response within ${req.timeoutMs} ms` };
  }
  const failure = transportFailureFrom(error);
  return req.key && 'message' in failure ? { ...failure, message: redactSecrets(failure.message, [req.key]) } : failure;
}

/** `joinUrl` without its two regular expressions when there is no slash to trim (the common case, on every call). */
function urlOf(baseUrl: string, path: string, query: string | undefined): string {
  const plain = baseUrl.charCodeAt(baseUrl.length - 1) !== SLASH && path.charCodeAt(0) === SLASH && path.charCodeAt(1) !== SLASH;
  const url = plain ? baseUrl + path : joinUrl(baseUrl, path);
  return query === undefined ? url : `${url}?${query}`;
}
const SLASH = 47;

const performanceNow = (): number => performance.now();

/**
 * Sends one GET. Never throws: every way it can end is in the result. `timeoutMs` covers
 * queueing for a connection, connecting, headers and body together (see attempt-deadline.ts).
 */
export async function sendAttempt(req: AttemptRequest): Promise<AttemptResult> {
  const now = req.now ?? performanceNow;
  const started = now();
  const caller = req.signal;
  if (caller?.aborted) {
    return { kind: 'failure', failure: { kind: 'aborted', reason: caller.reason, message: 'aborted by caller' }, timings: timingsOf(started, undefined, now) };
  }
  // The deadline's clock is performance.now(); an injected `now` only shapes the timings.
  const deadline = req.now ? new AttemptDeadline(req.timeoutMs, req.deadlineTimer) : new AttemptDeadline(req.timeoutMs, req.deadlineTimer, started);
  let headersAt: number | undefined;
  try {
    // undici treats 0 as "no timeout"; the budget is whole milliseconds of at least 1. The
    // body timeout gets the same value only so undici's per-socket parser timer is refreshed
    // between the headers and body phases instead of replaced (it replaces it whenever the
    // value changes); our deadline still ends a trickling body. No gain beyond noise measured.
    const budgetMs = Math.max(1, Math.ceil(req.timeoutMs));
    const res = await requestWithin(
      urlOf(req.baseUrl, req.path, req.query),
      // The caller's signal goes to undici only when there is one: see attempt-deadline.ts.
      caller
        ? { method: 'GET', dispatcher: req.dispatcher, headers: buildHeaders(req), headersTimeout: budgetMs, bodyTimeout: budgetMs, signal: caller }
        : { method: 'GET', dispatcher: req.dispatcher, headers: buildHeaders(req), headersTimeout: budgetMs, bodyTimeout: budgetMs },
      deadline,
    );
    headersAt = now();
    const status = res.statusCode;
    const success = status >= 200 && status < 300;
    const limit = success ? (req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) : ERROR_BODY_BYTES;
    const headers = scrubHeaders(flattenHeaders(res.headers), req.key);
    // The common case stays one await on `body.text()` (no extra async frame around it).
    const known = knownLengthWithin(headers, limit);
    let text: string;
    let bytes: number;
    if (known !== undefined) {
      text = await res.body.text();
      bytes = known;
    } else ({ text, bytes } = await readCapped(res.body, headers, limit, success));
    if (req.key) text = redactSecrets(text, [req.key]);
    const parsed = parseEnvelope(text, { status, list: LIST_ENDPOINTS.has(req.endpoint) });
    const envelope = req.key ? scrubParsed(parsed, req.key) : parsed;
    const classification = classifyResponse(status, envelope, headers['location']);
    const excerpt = text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) : text;
    const requestId = headers[REQUEST_ID_HEADER];
    return {
      kind: 'response',
      status,
      headers,
      envelope,
      classification,
      requestId: requestId === undefined ? undefined : serverText(requestId, SERVER_TEXT_LIMITS.header),
      bodyBytes: bytes,
      // An answer that is not data goes into errors and findings with its excerpt: scrubbed of
      // the key's other forms too. A success's excerpt (not shown by the client; a few µs per
      // call) is left to the view that shows it.
      bodyExcerpt: req.key && classification.kind !== 'ok' ? scrubKeyEchoes(excerpt, [req.key]) : excerpt,
      timings: timingsOf(started, headersAt, now),
    };
  } catch (error) {
    return { kind: 'failure', failure: failureOf(error, req, deadline, headersAt !== undefined), timings: timingsOf(started, headersAt, now) };
  } finally {
    deadline.settle();
  }
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
