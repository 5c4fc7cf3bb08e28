/**
 * What a server sends back: the envelope (spec §2), parsed without ever throwing; and its text,
 * bounded where it is read (a runaway value cannot fill memory and logs) and made printable (it
 * cannot drive a terminal or reorder the text around it). Every tool reads server strings from
 * here.
 */

/**
 * `error.code`, `error.message`, what is wrong with a body (or a `Location`), an id header: longer
 * is cut, ending in `…`.
 */
export const SERVER_TEXT_LIMITS = { code: 64, message: 300, detail: 300, header: 128 } as const;

/**
 * C0 and C1 controls, DEL, bidi marks, overrides and isolates, line separators, zero-width space,
 * BOM.
 */
const UNPRINTABLE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;
const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'g');

function escaped(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Control and bidi characters written as `\x1b` / `\u202e`: readable, no longer acted on. */
export function printable(text: string): string {
  return UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE_ALL, escaped) : text;
}

export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  let room = Math.max(0, max - 1);
  // Never split a surrogate pair: half a character prints as a replacement box.
  const last = text.charCodeAt(room - 1);
  if (last >= 0xd800 && last <= 0xdbff) room -= 1;
  return `${text.slice(0, room)}…`;
}

/** How a server's text is kept once read; applying it twice changes nothing. */
export function serverText(text: string, max: number): string {
  return boundText(printable(text), max);
}

/** `message` is Polish (spec §2): shown, never used to classify. */
export interface ApiErrorBody {
  readonly code: string;
  readonly message: string;
}

export type Envelope<T = unknown> =
  { readonly ok: true; readonly data: T } | { readonly ok: false; readonly error: ApiErrorBody };

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

export function checkEnvelope(value: unknown, expect: EnvelopeExpectations = {}): EnvelopeParse {
  if (!isRecord(value))
    return invalid('not_object', `body is JSON ${typeName(value)}, not an object`);
  if (!('ok' in value)) return invalid('ok_missing', 'field "ok" is missing');
  const ok = value['ok'];
  if (typeof ok !== 'boolean')
    return invalid('ok_not_boolean', `field "ok" is ${typeName(ok)}, not boolean`);
  const { status } = expect;
  if (status !== undefined && (status >= 200 && status < 300) !== ok)
    return invalid('status_ok_mismatch', `HTTP ${status} with "ok": ${ok}`);
  if (ok) {
    if (!('data' in value)) return invalid('data_missing', '"ok": true without "data"');
    const data = value['data'];
    if (expect.list && !Array.isArray(data))
      return invalid(
        'data_not_array',
        `list endpoint returned "data" as ${typeName(data)}, not an array`,
      );
    return { valid: true, envelope: { ok: true, data } };
  }
  const error = value['error'];
  if (!isRecord(error))
    return invalid(
      'error_missing',
      `"ok": false with "error" ${error === undefined ? 'missing' : `as ${typeName(error)}`}`,
    );
  const { code, message } = error;
  if (typeof code !== 'string' || code === '')
    return invalid('error_code_missing', '"error.code" is missing or not a non-empty string');
  if (typeof message !== 'string')
    return invalid('error_message_missing', '"error.message" is missing or not a string');
  const bounded = {
    code: serverText(code, SERVER_TEXT_LIMITS.code),
    message: serverText(message, SERVER_TEXT_LIMITS.message),
  };
  return { valid: true, envelope: { ok: false, error: bounded } };
}

export function parseEnvelope(text: string, expect: EnvelopeExpectations = {}): EnvelopeParse {
  if (!/\S/.test(text)) return invalid('empty_body', 'body is empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return invalid(
      'not_json',
      `body is not JSON (${reason}); starts with ${JSON.stringify(text.slice(0, 40))}`,
    );
  }
  return checkEnvelope(value, expect);
}
