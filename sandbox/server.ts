/**
 * The HTTP edge: reads a request, asks `decide` and the fault plan, writes the answer, logs
 * it. Errors in the client connection (bad request line, huge headers) are answered with an
 * envelope too, and closing the server ends every connection, stalled ones included.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { BASE_PATH, ERROR_CODES, REQUEST_ID_HEADER } from '../api/contract/index.js';
import { JSON_CONTENT_TYPE, errorEnvelope } from '../api/contract/server/index.js';
import { type Reply, type SandboxState, decide } from './decide.js';
import type { FaultRule } from './faults/parse.js';
import { sendFault } from './faults/respond.js';
import { planFaults } from './faults/select.js';
import type { DemoKey } from './keys.js';
import { messageFor } from './messages.js';
import type { Random } from './random.js';
import type { RateLimiter } from './rate-limit.js';
import { jsonOutgoing, replyOutgoing, send } from './respond.js';

export interface SandboxRequestRecord {
  /** Date.now() milliseconds when the request arrived. */
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly keyAlias?: string;
  /** 0 when no response was sent (a `reset` fault). */
  readonly status: number;
}

export interface ServerDeps {
  readonly state: SandboxState;
  readonly faults: () => readonly FaultRule[];
  readonly limiter: RateLimiter | undefined;
  readonly random: Random;
  readonly now: () => number;
  readonly logger: Logger | undefined;
  readonly record: (entry: SandboxRequestRecord) => void;
  /** Aborted on close, so pending latency faults stop waiting. */
  readonly closing: AbortSignal;
  /** Rewrites a decided reply before faults and sending (`--page-size`); absent: sent as decided. */
  readonly shape?: (reply: Reply, req: IncomingMessage) => Reply;
}

/** The server certificate and key for https (`--tls`); absent: plain http. */
export interface ServerTls {
  readonly cert: string;
  readonly key: string;
}

/** The path without query or fragment; absolute-form targets are reduced to their path. */
export function requestPathname(target: string | undefined): string | undefined {
  if (!target) return undefined;
  if (target.startsWith('/')) {
    const end = target.search(/[?#]/);
    return end === -1 ? target : target.slice(0, end);
  }
  return URL.parse(target)?.pathname ?? undefined;
}

export function relativeToBase(pathname: string | undefined): string | undefined {
  if (pathname === undefined) return undefined;
  if (pathname === BASE_PATH) return '/';
  return pathname.startsWith(`${BASE_PATH}/`) ? pathname.slice(BASE_PATH.length) : undefined;
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> {
  const at = Date.now();
  const requestId = randomUUID();
  const method = req.method ?? 'GET';
  const pathname = requestPathname(req.url);
  // Bodies are not part of the API; read and drop them so the connection stays usable.
  req.resume();
  const plan = planFaults(deps.faults(), relativeToBase(pathname), deps.random);
  const decided = decide(
    {
      method,
      pathname,
      headers: req.headers,
      breach: plan.breach,
      ...(deps.limiter ? { rateLimit: (key: DemoKey) => deps.limiter!.hit(key.alias, deps.now()) } : {}),
    },
    deps.state,
  );
  const reply = deps.shape ? deps.shape(decided, req) : decided;
  if (plan.latencyMs > 0) {
    try {
      await sleep(plan.latencyMs, undefined, { signal: deps.closing });
    } catch {
      return;
    }
  }
  let status = reply.status;
  if (plan.response) status = sendFault(res, plan.response, reply, requestId, { dialect: deps.state.dialect, now: deps.now() });
  else send(res, replyOutgoing(reply), requestId);
  const path = pathname ?? String(req.url);
  deps.record({ at, method, path, ...(reply.keyAlias ? { keyAlias: reply.keyAlias } : {}), status });
  deps.logger?.info(
    { requestId, method, path, keyAlias: reply.keyAlias, status, code: reply.envelope.ok ? undefined : reply.envelope.error.code, faults: plan.fired.length ? plan.fired : undefined },
    'request',
  );
}

function internalError(res: ServerResponse, requestId: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  send(res, jsonOutgoing({ status: 500, envelope: errorEnvelope(ERROR_CODES.internalError, messageFor(ERROR_CODES.internalError)), body: 'envelope', headers: {} }), requestId);
}


/** Raw answer for requests Node's parser rejected before a handler could run. */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify(
    errorEnvelope(ERROR_CODES.badRequest, tooLarge ? 'Nagłówki żądania są zbyt duże.' : 'Nieprawidłowe żądanie HTTP.'),
  );
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `content-type: ${JSON_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `${REQUEST_ID_HEADER}: ${randomUUID()}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function createSandboxServer(deps: ServerDeps, tls?: ServerTls): Server {
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res, deps).catch((error: unknown) => {
      deps.logger?.error({ err: error }, 'request handler failed');
      internalError(res, randomUUID());
    });
  };
  // An https.Server is an http.Server underneath: the same handler, close and clientError hooks.
  const server: Server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, listener) : createServer(listener);
  server.on('clientError', answerClientError);
  return server;
}
