/**
 * The response envelope (spec §2) and a parser that never throws and says what is wrong with a
 * body. The server's strings it hands on are printable and bounded, so no tool stores or prints more.
 */
import { SERVER_TEXT_LIMITS, serverText } from './untrusted-text.js';

/** `message` is Polish (spec §2): shown, never used to classify. */
export interface ApiErrorBody {
  readonly code: string;
  readonly message: string;
}

export type Envelope<T = unknown> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly error: ApiErrorBody };

export type EnvelopeProblem =
  | 'empty_body'
  | 'not_json'
  | 'not_object'
  | 'ok_missing'
  | 'ok_not_boolean'
  | 'data_missing'
  | 'error_missing'
  | 'error_code_missing'
  | 'error_message_missing'
  | 'status_ok_mismatch'
  | 'data_not_array';

export type EnvelopeParse<T = unknown> =
  | { readonly valid: true; readonly envelope: Envelope<T> }
  | { readonly valid: false; readonly problem: EnvelopeProblem; readonly detail: string };

export interface EnvelopeExpectations {
  /** HTTP status the body came with; a 2xx must say ok:true, anything else ok:false. */
  readonly status?: number;
  /** The endpoint returns a list, so `data` must be an array. */
  readonly list?: boolean;
}

function invalid(problem: EnvelopeProblem, detail: string): EnvelopeParse<never> {
  return { valid: false, problem, detail: serverText(detail, SERVER_TEXT_LIMITS.detail) };
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks an already-decoded JSON value against the envelope rules. */
export function checkEnvelope(value: unknown, expect: EnvelopeExpectations = {}): EnvelopeParse {
  if (!isRecord(value)) return invalid('not_object', `body is JSON ${typeName(value)}, not an object`);
  if (!('ok' in value)) return invalid('ok_missing', 'field "ok" is missing');
  const ok = value['ok'];
  if (typeof ok !== 'boolean') return invalid('ok_not_boolean', `field "ok" is ${typeName(ok)}, not boolean`);
  const { status } = expect;
  if (status !== undefined && (status >= 200 && status < 300) !== ok)
    return invalid('status_ok_mismatch', `HTTP ${status} with "ok": ${ok}`);
  if (ok) {
    if (!('data' in value)) return invalid('data_missing', '"ok": true without "data"');
    const data = value['data'];
    if (expect.list && !Array.isArray(data))
      return invalid('data_not_array', `list endpoint returned "data" as ${typeName(data)}, not an array`);
    return { valid: true, envelope: { ok: true, data } };
  }
  const error = value['error'];
  if (!isRecord(error))
    return invalid('error_missing', `"ok": false with "error" ${error === undefined ? 'missing' : `as ${typeName(error)}`}`);
  const { code, message } = error;
  if (typeof code !== 'string' || code === '') return invalid('error_code_missing', '"error.code" is missing or not a non-empty string');
  if (typeof message !== 'string') return invalid('error_message_missing', '"error.message" is missing or not a string');
  const bounded = { code: serverText(code, SERVER_TEXT_LIMITS.code), message: serverText(message, SERVER_TEXT_LIMITS.message) };
  return { valid: true, envelope: { ok: false, error: bounded } };
}

/** Parses a response body's text and checks it. */
export function parseEnvelope(text: string, expect: EnvelopeExpectations = {}): EnvelopeParse {
  if (!/\S/.test(text)) return invalid('empty_body', 'body is empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return invalid('not_json', `body is not JSON (${reason}); starts with ${JSON.stringify(text.slice(0, 40))}`);
  }
  return checkEnvelope(value, expect);
}
