/**
 * One HTTP attempt against API v1, with no retries: send, read a capped body, parse the
 * envelope and classify. The client's retry loop and the monitor's probes both stand on this,
 * so a broken envelope the monitor reports is exactly what an integration would see.
 */
import type { EventEmitter } from 'node:events';
import { request, type Dispatcher } from 'undici';
import {
  type AuthScheme,
  type EndpointId,
  type EnvelopeParse,
  type ResponseClass,
  REQUEST_ID_HEADER,
  authHeader,
  classifyResponse,
  endpointSpec,
  joinUrl,
  parseEnvelope,
} from '../contract/index.js';
import { type ApiKey, redactSecrets } from './api-key.js';
import { type TimeoutPhase, type TransportFailure, transportFailureFrom } from './transport-failure.js';

/** A success body above this is refused (issue: bodies capped, default 20 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;
/** Error bodies are read only this far: enough for any envelope, not for a runaway page. */
export const ERROR_BODY_BYTES = 64 * 1024;
const EXCERPT_CHARS = 512;

export interface AttemptRequest {
  readonly dispatcher: Dispatcher;
  readonly baseUrl: string;
  /** Relative to `{base_url}`, e.g. `/tenants/x/clients`. */
  readonly path: string;
  readonly endpoint: EndpointId;
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
  /** First characters of the body with any key value replaced, for debug views. */
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

class BodyTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`response body exceeds ${limitBytes} bytes`);
  }
}

/**
 * The abort source undici listens to for one attempt. undici accepts an EventEmitter-shaped
 * signal (`aborted`, `reason`, `on`/`once`, `removeListener`); this one holds the single listener
 * undici registers and costs a fraction of an AbortController plus `AbortSignal.any` on a
 * path every call takes.
 */
class AttemptAbort {
  aborted = false;
  reason: unknown = undefined;
  timedOut = false;
  #listeners: Array<() => void> = [];

  once(_event: 'abort', listener: () => void): this {
    this.#listeners.push(listener);
    return this;
  }

  /** undici checks for `on` to accept an emitter; every listener here fires at most once anyway. */
  on(event: 'abort', listener: () => void): this {
    return this.once(event, listener);
  }

  removeListener(_event: 'abort', listener: () => void): this {
    const index = this.#listeners.indexOf(listener);
    if (index >= 0) this.#listeners.splice(index, 1);
    return this;
  }

  abort(reason: unknown, timedOut: boolean): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.timedOut = timedOut;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }

  /** undici's option type names EventEmitter; it uses only the members above. */
  asSignal(): EventEmitter {
    return this as unknown as EventEmitter;
  }
}

async function readCapped(body: Dispatcher.ResponseData['body'], headers: Record<string, string>, limit: number, refuseOverLimit: boolean): Promise<{ text: string; bytes: number }> {
  const declared = Number(headers['content-length'] ?? Number.NaN);
  // Common case: the length is declared and within the cap, and undici enforces it.
  if (Number.isSafeInteger(declared) && declared <= limit) return { text: await body.text(), bytes: declared };
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

/** Sends one GET. Never throws: every way it can end is in the result. */
export async function sendAttempt(req: AttemptRequest): Promise<AttemptResult> {
  const now = req.now ?? (() => performance.now());
  const started = now();
  let headersAt: number | undefined;
  const timings = (): AttemptTimings => ({
    headersMs: headersAt === undefined ? undefined : headersAt - started,
    totalMs: now() - started,
  });
  const fail = (failure: TransportFailure): AttemptFailure => ({ kind: 'failure', failure, timings: timings() });
  const caller = req.signal;
  if (caller?.aborted) return fail({ kind: 'aborted', reason: caller.reason, message: 'aborted by caller' });
  const abort = new AttemptAbort();
  const timeout = setTimeout(() => abort.abort(new Error('attempt timeout'), true), req.timeoutMs);
  const onCallerAbort = (): void => abort.abort(caller?.reason, false);
  caller?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const res = await request(joinUrl(req.baseUrl, req.path), {
      method: 'GET',
      dispatcher: req.dispatcher,
      headers: buildHeaders(req),
      signal: abort.asSignal(),
    });
    headersAt = now();
    const success = res.statusCode >= 200 && res.statusCode < 300;
    const limit = success ? (req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) : ERROR_BODY_BYTES;
    const headers = flattenHeaders(res.headers);
    const { text, bytes } = await readCapped(res.body, headers, limit, success);
    const envelope = parseEnvelope(text, { status: res.statusCode, list: endpointSpec(req.endpoint).list });
    const excerpt = text.length > EXCERPT_CHARS ? text.slice(0, EXCERPT_CHARS) : text;
    return {
      kind: 'response',
      status: res.statusCode,
      headers,
      envelope,
      classification: classifyResponse(res.statusCode, envelope, headers['location']),
      requestId: headers[REQUEST_ID_HEADER],
      bodyBytes: bytes,
      bodyExcerpt: req.key ? redactSecrets(excerpt, [req.key]) : excerpt,
      timings: timings(),
    };
  } catch (error) {
    if (error instanceof BodyTooLarge) return fail({ kind: 'body_too_large', limitBytes: error.limitBytes, message: error.message });
    if (caller?.aborted) return fail({ kind: 'aborted', reason: caller.reason, message: 'aborted by caller' });
    if (abort.timedOut) {
      const phase: TimeoutPhase = headersAt === undefined ? 'headers' : 'body';
      return fail({ kind: 'timeout', phase, message: `no complete response within ${req.timeoutMs} ms` });
    }
    const failure = transportFailureFrom(error);
    return fail(req.key && 'message' in failure ? { ...failure, message: redactSecrets(failure.message, [req.key]) } : failure);
  } finally {
    clearTimeout(timeout);
    caller?.removeEventListener('abort', onCallerAbort);
  }
}
