/** Turning a reply into bytes on the wire: always the envelope, always JSON, always a request id. */
import type { ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER } from '../api/contract/index.js';
import { JSON_CONTENT_TYPE } from '../api/contract/server/index.js';
import type { Reply } from './decide.js';

export interface Outgoing {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export function jsonOutgoing(reply: Reply): Outgoing {
  return { status: reply.status, headers: { 'content-type': JSON_CONTENT_TYPE, ...reply.headers }, body: JSON.stringify(reply.envelope) };
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
