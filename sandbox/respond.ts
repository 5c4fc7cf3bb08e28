/**
 * Turning a reply into bytes on the wire: the envelope as JSON (spec §1), always with a
 * request id; the status text alone only where a fault asks for it.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { type Envelope, REQUEST_ID_HEADER } from '../api/contract/index.js';
import { JSON_CONTENT_TYPE, successEnvelope } from '../api/contract/server/index.js';

export interface Reply {
  readonly status: number;
  /** Every answer is the envelope (spec §1); only a fault sends anything else. */
  readonly envelope: Envelope;
  readonly headers: Readonly<Record<string, string>>;
  readonly keyAlias?: string;
}

export interface Outgoing {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The JSON of each envelope `servedEnvelope` made, by identity: data that never changes is serialised once. */
const serialised = new WeakMap<Envelope, string>();

/** The success envelope of `data`, serialised now for every answer that sends it. */
export function servedEnvelope(data: unknown): Envelope {
  const envelope = successEnvelope(data);
  serialised.set(envelope, JSON.stringify(envelope));
  return envelope;
}

export function jsonOutgoing(reply: Reply): Outgoing {
  const body = serialised.get(reply.envelope) ?? JSON.stringify(reply.envelope);
  return { status: reply.status, headers: { 'content-type': JSON_CONTENT_TYPE, ...reply.headers }, body };
}

/** The body as a string: Node then sends the head and the body in one write, not a writev of two. */
export function send(res: ServerResponse, outgoing: Outgoing, requestId: string): void {
  res.writeHead(outgoing.status, {
    ...outgoing.headers,
    'content-length': String(Buffer.byteLength(outgoing.body, 'utf8')),
    [REQUEST_ID_HEADER]: requestId,
  });
  res.end(outgoing.body, 'utf8');
}

/**
 * The same answer as bytes for a bare socket, where Node has no response object to write with
 * (its parser failed, or CONNECT took the socket over). The connection closes after it: what
 * follows on the socket can no longer be read as a request.
 */
export function rawResponse(outgoing: Outgoing, requestId: string): string {
  const body = Buffer.from(outgoing.body, 'utf8');
  const headers = { ...outgoing.headers, 'content-length': String(body.length), [REQUEST_ID_HEADER]: requestId, connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${outgoing.status} ${STATUS_CODES[outgoing.status] ?? ''}\r\n${lines.join('')}\r\n${outgoing.body}`;
}
