/**
 * The running sandbox's fault control: `PUT /-/faults` with `{"faults": "SPEC"}` sets the fault
 * spec (same grammar as `--faults`; "" clears), `DELETE /-/faults` clears it; in effect on the
 * next request, keys unchanged. The path is outside /api/v1, so it never shadows an API path
 * and faults never apply to it (a `reset` on every path can still be cleared).
 * It answers only from this machine and no web page (lib/loopback.ts), and only with the
 * token the sandbox prints at start (`Authorization: Bearer TOKEN`). Pure: the server reads
 * the request and writes the reply.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ERROR_CODES, type ErrorCode } from '../api/contract/index.js';
import { ERROR_STATUS, errorEnvelope, successEnvelope } from '../api/contract/server/index.js';
import { type RequestOrigin, notLocal } from '../lib/index.js';
import type { Reply } from './decide.js';
import type { FaultSpecParse } from './faults/parse.js';

export const CONTROL_PATH = '/-/faults';
const ALLOW = 'PUT, DELETE';

/** `body`: the text, read to its end (the server's MAX_REQUEST_BODY_BYTES bounds it). */
type ControlRequest = RequestOrigin & { readonly method: string; readonly body: string };

export interface FaultControl {
  readonly token: string;
  /** Parses and, when it parses, applies the spec. */
  setFaults(spec: string): FaultSpecParse;
}

function refuse(status: number, code: ErrorCode, message: string, headers: Readonly<Record<string, string>> = {}): Reply {
  return { status, envelope: errorEnvelope(code, message), headers };
}

function tokenMatches(header: string | string[] | undefined, token: string): boolean {
  const given = typeof header === 'string' ? /^bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/** The spec a PUT body carries, or why it carries none. */
function specOf(request: ControlRequest): string | Reply {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (type !== 'application/json') return refuse(415, ERROR_CODES.badRequest, 'send the spec as application/json: {"faults": "SPEC"}');
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    return refuse(400, ERROR_CODES.badRequest, 'the body is not JSON; send {"faults": "SPEC"}');
  }
  const faults = typeof body === 'object' && body !== null ? (body as { faults?: unknown }).faults : undefined;
  if (typeof faults !== 'string')
    return refuse(400, ERROR_CODES.badRequest, 'the body needs "faults": a string, the fault spec ("" clears)');
  return faults;
}

/** The answer to a request on CONTROL_PATH; the faults in force change only on a 200. */
export function controlReply(request: ControlRequest, control: FaultControl): Reply {
  const why = notLocal(request);
  if (why) return refuse(403, ERROR_CODES.badRequest, `the fault control ${why}`);
  if (!tokenMatches(request.headers['authorization'], control.token)) {
    return refuse(
      ERROR_STATUS.unauthorized,
      ERROR_CODES.unauthorized,
      'the fault control needs the token the sandbox printed at start: Authorization: Bearer TOKEN',
      { 'www-authenticate': 'Bearer' },
    );
  }
  if (request.method !== 'PUT' && request.method !== 'DELETE')
    return refuse(ERROR_STATUS.method_not_allowed, ERROR_CODES.methodNotAllowed, `the fault control takes ${ALLOW}`, { allow: ALLOW });
  const spec = request.method === 'PUT' ? specOf(request) : '';
  if (typeof spec !== 'string') return spec;
  const parsed = control.setFaults(spec);
  if (!parsed.ok) return refuse(400, ERROR_CODES.badRequest, `${parsed.error}; the faults in force are unchanged`);
  return { status: 200, envelope: successEnvelope({ faults: parsed.rules.map((r) => r.source).join(';') }), headers: {} };
}
