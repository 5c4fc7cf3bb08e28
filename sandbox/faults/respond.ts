/**
 * Writing a response that a fault bends or replaces. These are the only answers the sandbox
 * gives that break the contract, and only because the fault spec asked for them. A storm's
 * 429 is not a breach: it speaks the dialect like the limiter's.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { ERROR_CODES, REQUEST_ID_HEADER } from '../../api/contract/index.js';
import { JSON_CONTENT_TYPE, PLAIN_CONTENT_TYPE, errorEnvelope } from '../../api/contract/server/index.js';
import { type Reply, fail, messageFor } from '../decide.js';
import type { Dialect } from '../dialect/index.js';
import { stormHeaders } from '../rate-limit.js';
import { type Outgoing, jsonOutgoing, send } from '../respond.js';
import type { ResponseFault } from './parse.js';

const HTML_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  500: 'Wewnętrzny błąd serwera (wstrzyknięta usterka).',
  502: 'Błąd bramy: serwer pośredniczący otrzymał nieprawidłową odpowiedź (wstrzyknięta usterka).',
  503: 'Usługa chwilowo niedostępna (wstrzyknięta usterka).',
};

function json(status: number, body: string, headers: Record<string, string> = {}): Outgoing {
  return { status, headers: { 'content-type': JSON_CONTENT_TYPE, ...headers }, body };
}

/** An envelope still valid as JSON and as an envelope, padded past `bytes` with an extra field. */
function oversized(reply: Reply, bytes: number): Outgoing {
  const base = jsonOutgoing(reply);
  const head = `${base.body.slice(0, -1)},"padding":"`;
  const missing = Math.max(0, bytes - Buffer.byteLength(head) - 2);
  const body = `${head}${'x'.repeat(missing)}"}`;
  return { ...base, body };
}

/** What a fault needs to speak the running dialect where the spec leaves the form open; `now` in epoch ms, for wait hints. */
type FaultContext = { readonly dialect: Dialect; readonly now: number };

/** Faults answered with a complete (if wrong) response. */
function replacement(fault: Exclude<ResponseFault, { kind: 'reset' | 'stall' }>, reply: Reply, context: FaultContext): Outgoing {
  switch (fault.kind) {
    case 'rate-limit-storm': // worded as the limiter's 429 in the dialect
      return jsonOutgoing(
        fail(ERROR_CODES.rateLimited, undefined, stormHeaders(context.dialect.rateLimitHeaders, fault.retryAfterSeconds, context.now)),
      );
    case 'status':
      return json(fault.status, JSON.stringify(errorEnvelope(ERROR_CODES.internalError, STATUS_MESSAGES[fault.status] ?? '')));
    case 'html-502':
      return { status: 502, headers: { 'content-type': 'text/html' }, body: HTML_502 };
    case 'broken-envelope': {
      const { envelope: e } = reply;
      return json(reply.status, JSON.stringify({ status: e.ok ? 'success' : 'error', result: e.ok ? e.data : e.error }));
    }
    case 'plain-error-bodies': // the status text, as a bare proxy or framework sends it
      if (reply.envelope.ok) return jsonOutgoing(reply);
      return {
        status: reply.status,
        headers: { 'content-type': PLAIN_CONTENT_TYPE, ...reply.headers },
        body: STATUS_CODES[reply.status] ?? String(reply.status),
      };
    case 'invalid-json':
      return json(reply.status, JSON.stringify(reply.envelope).slice(0, 20));
    case 'ok-without-data':
      return json(200, '{"ok":true}');
    case 'error-without-code':
      return json(
        reply.status >= 400 ? reply.status : 500,
        JSON.stringify({ ok: false, error: { message: messageFor(ERROR_CODES.internalError) } }),
      );
    case 'oversized':
      return oversized(reply, fault.bytes);
    case 'redirect':
      return { status: 302, headers: { location: fault.url }, body: '' };
  }
}

/** Writes the faulty answer; returns the status recorded in the request log (0: none was sent). */
export function sendFault(res: ServerResponse, fault: ResponseFault, reply: Reply, requestId: string, context: FaultContext): number {
  if (fault.kind === 'reset') {
    res.socket?.destroy();
    return 0;
  }
  if (fault.kind === 'stall') {
    const body = Buffer.from(JSON.stringify(reply.envelope), 'utf8');
    res.writeHead(reply.status, {
      'content-type': JSON_CONTENT_TYPE,
      'content-length': String(body.length + 1024),
      [REQUEST_ID_HEADER]: requestId,
    });
    // Half a body and then nothing: the client must time out on its own.
    res.write(body.subarray(0, Math.ceil(body.length / 2)));
    return reply.status;
  }
  const outgoing = replacement(fault, reply, context);
  send(res, outgoing, requestId);
  return outgoing.status;
}
