/**
 * Answers below the API: requests HTTP itself tells a server to refuse, which Node's http
 * server would otherwise answer on its own, bare (no envelope, no request id) or not at all.
 * Pure: `decide` and the server's event handlers ask here and write what comes back. Each is a
 * `bad_request` envelope under the status HTTP names; the dialect's body style applies as
 * everywhere (`error-bodies=plain` only touches 401 and 429, so these stay envelopes).
 */
import { ERROR_CODES } from '../api/contract/index.js';
import { bodyForm, errorEnvelope } from '../api/contract/server/index.js';
import type { Reply } from './decide.js';
import type { Dialect } from './dialect/index.js';
import { messageFor } from './messages.js';

export function badRequestReply(dialect: Dialect, status: number, detail?: string): Reply {
  const envelope = errorEnvelope(ERROR_CODES.badRequest, messageFor(ERROR_CODES.badRequest, detail));
  return { status, envelope, body: bodyForm(dialect.errorBodies, status), headers: {} };
}

/**
 * RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without a Host header and to
 * any request with more than one (two Hosts could route one request to two places).
 * `hosts` is one entry per Host line, as Node's `headersDistinct` gives them.
 */
export function hostProblem(httpVersion: string, hosts: readonly string[] | undefined): string | undefined {
  if (hosts !== undefined && hosts.length > 1) return 'Nagłówek Host podano więcej niż raz.';
  if (hosts === undefined && httpVersion === '1.1') return 'Żądanie HTTP/1.1 musi zawierać nagłówek Host.';
  return undefined;
}

/** RFC 9110 §10.1.1: an expectation the server cannot meet (anything but 100-continue) gets 417. */
export function expectationFailedReply(dialect: Dialect): Reply {
  return badRequestReply(dialect, 417, 'Nieobsługiwana wartość nagłówka Expect (obsługiwane jest tylko 100-continue).');
}

/**
 * What Node's parser rejected before a handler could answer (a garbage request line, huge
 * headers, a malformed chunked body, a request that never finished arriving), with the status
 * Node's own bare answer would have had.
 */
export function clientErrorReply(dialect: Dialect, errorCode: string | undefined): Reply {
  switch (errorCode) {
    case 'HPE_HEADER_OVERFLOW':
      return badRequestReply(dialect, 431, 'Nagłówki żądania są zbyt duże.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return badRequestReply(dialect, 413, 'Rozszerzenia fragmentów treści (chunked) są zbyt duże.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return badRequestReply(dialect, 408, 'Żądanie nie dotarło w całości na czas.');
    default:
      return badRequestReply(dialect, 400);
  }
}
