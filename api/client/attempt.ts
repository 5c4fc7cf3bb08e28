/**
 * One HTTP attempt, no retries: send, read a capped body, parse the envelope and classify. It never
 * throws: every way it can end is in the result, for the retrying call and for one exact answer.
 */
import { randomBytes } from 'node:crypto';
import { type Dispatcher, request } from 'undici';
import type {
  AnswerKind,
  AuthScheme,
  EndpointId,
  EnvelopeParse,
  ResponseClass,
} from '../contract/index.js';
import {
  ENDPOINTS,
  authHeader,
  classifyResponse,
  joinUrl,
  parseEnvelope,
} from '../contract/index.js';
import { REQUEST_ID_HEADER, SERVER_TEXT_LIMITS, serverText } from '../contract/index.js';
import { type ApiKey, redactSecrets, scrubKeyEchoes } from './api-key.js';

/** The version of the client's code (not of the toolkit), in its `User-Agent`. */
export const CLIENT_VERSION = '0.2.0';
export const USER_AGENT = `repair-service-client/${CLIENT_VERSION} node/${process.versions.node}`;

let pool = Buffer.alloc(0);
let used = 0;

/** Random hex for trace and span ids, cut from one 4 KiB draw (one draw per id costs more). */
export function randomHex(bytes: number): string {
  if (used + bytes > pool.length) [pool, used] = [randomBytes(4096), 0];
  used += bytes;
  return pool.toString('hex', used - bytes, used);
}

/** A W3C `traceparent` (version 00, sampled): one trace per call, a new span per attempt. */
export function traceparent(traceId: string = randomHex(16)): string {
  return `00-${traceId}-${randomHex(8)}-01`;
}

/** A success body above this is refused: a runaway response must not exhaust memory. */
const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;
/** Error bodies are read only this far: enough for any envelope, not for a runaway page. */
const ERROR_BODY_BYTES = 64 * 1024;
const EXCERPT_CHARS = 512;

export interface AttemptRequest {
  readonly dispatcher: Dispatcher;
  readonly baseUrl: string;
  readonly path: string;
  /** Encoded, without `?`. */
  readonly query?: string | undefined;
  /** Decides whether `data` must be a list; undefined for a path outside the spec's table. */
  readonly endpoint: EndpointId | undefined;
  /** Omitted for public calls such as `/docs`. */
  readonly key?: ApiKey | undefined;
  readonly authScheme: AuthScheme;
  /** Queueing for a connection, connecting, headers and body together. */
  readonly timeoutMs: number;
  readonly maxBodyBytes?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly traceparent?: string | undefined;
  readonly userAgent?: string | undefined;
}

export type TimeoutPhase = 'connect' | 'headers' | 'body';

export type TransportFailure =
  | { readonly kind: 'timeout'; readonly phase: TimeoutPhase; readonly message: string }
  | { readonly kind: 'connection'; readonly code: string; readonly message: string }
  | { readonly kind: 'tls'; readonly code: string; readonly message: string }
  | { readonly kind: 'body_too_large'; readonly limitBytes: number; readonly message: string }
  | { readonly kind: 'aborted'; readonly reason: unknown; readonly message: string };

export type AttemptTimings = { readonly headersMs: number | undefined; readonly totalMs: number };

export interface AttemptResponse {
  readonly kind: 'response';
  readonly traceId: string;
  readonly status: number;
  /** Lowercase names; a value the key was echoed in is scrubbed. */
  readonly headers: Readonly<Record<string, string>>;
  readonly envelope: EnvelopeParse;
  readonly classification: ResponseClass;
  readonly requestId: string | undefined;
  readonly bodyBytes: number;
  /** The start of the body, key scrubbed (also escaped and partial forms when not data). */
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

type Body = Dispatcher.ResponseData['body'];
const LIST_ENDPOINTS: ReadonlySet<EndpointId | undefined> = new Set(
  ENDPOINTS.filter((e) => e.list).map((e) => e.id),
);

class BodyTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`response body exceeds ${limitBytes} bytes`);
  }
}

/** What undici or Node threw, as a closed set of failures (codes read along the `cause` chain). */
function transportFailureFrom(error: unknown): TransportFailure {
  const message = error instanceof Error ? error.message : String(error);
  const codes: string[] = [];
  for (
    let e = error, depth = 0;
    depth < 5 && typeof e === 'object' && e !== null;
    depth += 1, e = (e as { cause?: unknown }).cause
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  for (const code of codes) {
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return { kind: 'timeout', phase: 'connect', message };
    if (code === 'UND_ERR_HEADERS_TIMEOUT') return { kind: 'timeout', phase: 'headers', message };
    if (code === 'UND_ERR_BODY_TIMEOUT') return { kind: 'timeout', phase: 'body', message };
    if (/^ERR_(TLS|SSL)|CERT|^UNABLE_TO_(VERIFY|GET_ISSUER)/.test(code))
      return { kind: 'tls', code, message };
  }
  return {
    kind: 'connection',
    code: codes.find((c) => c !== 'UND_ERR_SOCKET') ?? codes[0] ?? 'UNKNOWN',
    message,
  };
}

/** One string per lowercase name, a key echo scrubbed; undici's object when nothing changes. */
function headersOf(
  raw: Record<string, string | string[] | undefined>,
  key: ApiKey | undefined,
): Record<string, string> {
  const secret = key?.reveal();
  let plain = true;
  for (const name in raw) {
    const value = raw[name];
    if (typeof value !== 'string' || (secret !== undefined && value.includes(secret)))
      plain = false;
  }
  if (plain) return raw as Record<string, string>;
  const out: Record<string, string> = {};
  for (const name in raw) {
    const value = raw[name];
    if (value !== undefined)
      out[name] = key
        ? redactSecrets(Array.isArray(value) ? value.join(', ') : value, [key])
        : String(value);
  }
  return out;
}

/** Reads at most `limit` bytes; a success over it is refused, an error body is cut there. */
async function readCapped(
  body: Body,
  declared: number,
  limit: number,
  refuse: boolean,
): Promise<{ text: string; bytes: number }> {
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

function failureOf(
  error: unknown,
  req: AttemptRequest,
  timedOut: boolean,
  inBody: boolean,
): TransportFailure {
  if (error instanceof BodyTooLarge)
    return { kind: 'body_too_large', limitBytes: error.limitBytes, message: error.message };
  if (req.signal?.aborted)
    return { kind: 'aborted', reason: req.signal.reason, message: 'aborted by caller' };
  const late = `no complete response within ${Math.round(req.timeoutMs)} ms`;
  if (timedOut) return { kind: 'timeout', phase: inBody ? 'body' : 'headers', message: late };
  const failure = transportFailureFrom(error);
  return req.key ? { ...failure, message: redactSecrets(failure.message, [req.key]) } : failure;
}

/**
 * A server may echo the key escaped, re-cased or cut short in its code or message: scrubbed too.
 */
function scrubbedEnvelope(parsed: EnvelopeParse, key: ApiKey): EnvelopeParse {
  if (!parsed.valid) return { ...parsed, detail: scrubKeyEchoes(parsed.detail, [key]) };
  if (parsed.envelope.ok) return parsed;
  const { code, message } = parsed.envelope.error;
  return {
    valid: true,
    envelope: {
      ok: false,
      error: { code: scrubKeyEchoes(code, [key]), message: scrubKeyEchoes(message, [key]) },
    },
  };
}

/**
 * The attempt's `signal` for undici (which takes any object with `addEventListener`), fired by the
 * attempt's timer or the caller's signal: one timer covers queueing, connecting, headers and a
 * trickling body, which undici's own idle `bodyTimeout` does not end.
 */
class Deadline {
  timedOut = false;
  private listener: (() => void) | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    ms: number,
    private readonly caller: AbortSignal | undefined,
  ) {
    this.timer = setTimeout(
      () => ((this.timedOut = true), this.abort()),
      Math.max(1, Math.ceil(ms)),
    );
    caller?.addEventListener('abort', this.abort);
  }

  readonly abort = (): void => this.listener?.();
  addEventListener(_: 'abort', listener: () => void): void {
    this.listener = listener;
  }
  removeEventListener(): void {
    this.listener = undefined;
  }
  end(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.abort);
  }
}

const timings = (started: number, headersAt: number | undefined): AttemptTimings => ({
  headersMs: headersAt === undefined ? undefined : headersAt - started,
  totalMs: performance.now() - started,
});

// request(url) parses the URL per call: a base and path that parsing keeps as they are skip it.
const PLAIN = /^(?!.*\/(\.|%2e))[\w\-.~%!$&()*+,;=:@/?]*(?<!\?)$/i;
const bases = new Map<string, { origin: string; path: string } | null>();

function plainBase(baseUrl: string) {
  let base = bases.get(baseUrl);
  if (base === undefined) {
    const raw = baseUrl.replace(/\/+$/, '');
    const url = /^https?:\/\/[^?#]*$/.test(raw) ? new URL(raw) : undefined;
    const same = url?.href.replace(/\/$/, '') === raw;
    base = same ? { origin: url.origin, path: url.pathname.replace(/\/$/, '') } : null;
    if (bases.size < 256) bases.set(baseUrl, base);
  }
  return base;
}

function send(req: AttemptRequest, headers: Record<string, string>, signal: Deadline) {
  const query = req.query ? `?${req.query}` : '';
  const rel = joinUrl('', req.path) + query;
  const base = PLAIN.test(rel) ? plainBase(req.baseUrl) : null;
  if (!base) {
    const url = joinUrl(req.baseUrl, req.path) + query;
    return request(url, { dispatcher: req.dispatcher, headers, signal });
  }
  const path = base.path + rel;
  return req.dispatcher.request({ origin: base.origin, path, method: 'GET', headers, signal });
}

export async function sendAttempt(req: AttemptRequest): Promise<AttemptResult> {
  const started = performance.now();
  const trace = req.traceparent ?? traceparent();
  const traceId = trace.slice(3, 35);
  const deadline = new Deadline(req.timeoutMs, req.signal);
  let headersAt: number | undefined;
  try {
    if (req.signal?.aborted) throw req.signal.reason;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': req.userAgent ?? USER_AGENT,
      traceparent: trace,
    };
    if (req.key) {
      const auth = authHeader(req.authScheme, req.key.reveal());
      headers[auth.name] = auth.value;
    }
    const res = await send(req, headers, deadline);
    headersAt = performance.now();
    const status = res.statusCode;
    const success = status >= 200 && status < 300;
    const resHeaders = headersOf(res.headers, req.key);
    const declared = Number(resHeaders['content-length'] ?? Number.NaN);
    const limit = success ? (req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) : ERROR_BODY_BYTES;
    // undici enforces a declared length itself: then one read, no chunk bookkeeping.
    const known = Number.isSafeInteger(declared) && declared <= limit;
    let text = known ? await res.body.text() : '';
    let bytes = declared;
    if (!known) ({ text, bytes } = await readCapped(res.body, declared, limit, success));
    if (req.key) text = redactSecrets(text, [req.key]);
    const parsed = parseEnvelope(text, { status, list: LIST_ENDPOINTS.has(req.endpoint) });
    const envelope = req.key ? scrubbedEnvelope(parsed, req.key) : parsed;
    const classification = classifyResponse(status, envelope, resHeaders['location']);
    const excerpt = text.slice(0, EXCERPT_CHARS);
    const id = resHeaders[REQUEST_ID_HEADER];
    return {
      kind: 'response',
      traceId,
      status,
      headers: resHeaders,
      envelope,
      classification,
      // In every error line: any part of the key is scrubbed.
      requestId:
        id && serverText(req.key ? scrubKeyEchoes(id, [req.key]) : id, SERVER_TEXT_LIMITS.header),
      bodyBytes: bytes,
      bodyExcerpt:
        req.key && classification.kind !== 'ok' ? scrubKeyEchoes(excerpt, [req.key]) : excerpt,
      timings: timings(started, headersAt),
    };
  } catch (error) {
    return {
      kind: 'failure',
      traceId,
      failure: failureOf(error, req, deadline.timedOut, headersAt !== undefined),
      timings: timings(started, headersAt),
    };
  } finally {
    deadline.end();
  }
}

/** The one reading of an attempt every tool names its answer by (`ANSWER_KINDS`). */
export function answerKind(result: AttemptResult): AnswerKind {
  if (result.kind === 'response') return result.classification.kind;
  const { kind } = result.failure;
  if (kind === 'timeout') return 'timeout';
  if (kind === 'tls') return 'tls_error';
  // A body over the size cap is no envelope; an abort, like a dropped connection, no answer.
  return kind === 'body_too_large' ? 'invalid_envelope' : 'connection_error';
}
