/**
 * Turning a reply into bytes on the wire: the envelope as JSON (or, where the dialect says so,
 * the status text of a 401 or 429), always with a request id.
 */
import type { ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER } from '../api/contract/index.js';
import { JSON_CONTENT_TYPE } from '../api/contract/server/index.js';
import { PLAIN_CONTENT_TYPE, plainText } from './bodies.js';
import type { Reply } from './decide.js';

export interface Outgoing {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export function jsonOutgoing(reply: Reply): Outgoing {
  return { status: reply.status, headers: { 'content-type': JSON_CONTENT_TYPE, ...reply.headers }, body: JSON.stringify(reply.envelope) };
}

export function replyOutgoing(reply: Reply): Outgoing {
  if (reply.body === 'envelope') return jsonOutgoing(reply);
  return { status: reply.status, headers: { 'content-type': PLAIN_CONTENT_TYPE, ...reply.headers }, body: plainText(reply.status) };
}

export function send(res: ServerResponse, outgoing: Outgoing, requestId: string): void {
  const body = Buffer.from(outgoing.body, 'utf8');
  res.writeHead(outgoing.status, {
    ...outgoing.headers,
    'content-length': String(body.length),
    [REQUEST_ID_HEADER]: requestId,
  });
  res.end(body);
}
