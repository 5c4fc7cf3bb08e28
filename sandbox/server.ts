/**
 * The HTTP edge: reads a request, asks `decide` and the fault plan, writes the answer, logs
 * it. What Node's server would answer on its own, bare or by closing the socket (a parser
 * error, a missing Host, an unknown Expect, CONNECT), is answered with an envelope too (the
 * replies are in protocol.ts), and closing the server ends every connection, stalled ones included.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { BASE_PATH, ERROR_CODES } from '../api/contract/index.js';
import { errorEnvelope } from '../api/contract/server/index.js';
import { CONTROL_PATH, type FaultControl, controlReply } from './control.js';
import { type Reply, type SandboxState, decide } from './decide.js';
import type { FaultRule } from './faults/parse.js';
import { sendFault } from './faults/respond.js';
import { planFaults } from './faults/select.js';
import type { DemoKey } from './keys.js';
import { messageFor } from './messages.js';
import { type OwedAnswers, owedAnswers } from './owed.js';
import { badRequestReply, clientErrorReply, expectationFailedReply } from './protocol.js';
import type { Random } from './random.js';
import type { RateLimiter } from './rate-limit.js';
import { jsonOutgoing, rawResponse, replyOutgoing, send } from './respond.js';

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
  /** Changes the faults of the running sandbox (`/-/faults`, control.ts). */
  readonly control: FaultControl;
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

/**
 * Bodies are not part of the API; past this many bytes the request is answered 413 and the
 * connection closed, so a client streaming gigabytes cannot hold an answer (or memory) forever.
 */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

type BodyRead = 'read' | 'incomplete' | 'too_large';

/**
 * Reads the request's body to its end and drops it. `incomplete` when the body never completes:
 * the client went away, or the parser found it malformed, and then `answerClientError` speaks for
 * the request. Answering before the body is read would send a 200 for a request that then turns
 * out to be malformed, and a second, unasked-for 400.
 */
function bodyRead(req: IncomingMessage, keep?: Buffer[]): Promise<BodyRead> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_REQUEST_BODY_BYTES) {
      resolve('too_large');
      return;
    }
    let seen = 0;
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      keep?.push(chunk);
      if (seen > MAX_REQUEST_BODY_BYTES) {
        req.off('data', onData);
        req.pause();
        resolve('too_large');
      }
    };
    req.on('data', onData);
    req.once('end', () => resolve('read'));
    req.once('close', () => resolve(req.complete ? 'read' : 'incomplete'));
    // Also keeps an aborted request's error from going unhandled.
    req.on('error', () => resolve('incomplete'));
  });
}

function answerTooLarge(req: IncomingMessage, res: ServerResponse, deps: ServerDeps, answered: Answered): void {
  const reply = badRequestReply(
    deps.state.dialect,
    413,
    `Treść żądania przekracza ${MAX_REQUEST_BODY_BYTES} bajtów; API nie przyjmuje treści.`,
  );
  const outgoing = replyOutgoing(reply);
  send(res, { ...outgoing, headers: { ...outgoing.headers, connection: 'close' } }, answered.requestId);
  res.once('finish', () => req.socket.destroySoon());
  logLine(deps, answered, reply, reply.status);
}

interface Answered {
  /** Date.now() when the request arrived. */
  readonly at: number;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
}

function logLine(
  deps: ServerDeps,
  { at, requestId, method, path }: Answered,
  reply: Reply,
  status: number,
  faults?: readonly string[],
): void {
  deps.record({ at, method, path, ...(reply.keyAlias ? { keyAlias: reply.keyAlias } : {}), status });
  deps.logger?.info(
    {
      requestId,
      method,
      path,
      keyAlias: reply.keyAlias,
      status,
      code: reply.envelope.ok ? undefined : reply.envelope.error.code,
      faults: faults?.length ? faults : undefined,
    },
    'request',
  );
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> {
  const at = Date.now();
  const requestId = randomUUID();
  const method = req.method ?? 'GET';
  const pathname = requestPathname(req.url);
  const kept: Buffer[] | undefined = pathname === CONTROL_PATH ? [] : undefined;
  const body = await bodyRead(req, kept);
  if (body === 'incomplete') return;
  if (body === 'too_large') {
    answerTooLarge(req, res, deps, { at, requestId, method, path: pathname ?? String(req.url) });
    return;
  }
  if (kept) {
    answerControl(req, res, deps, requestId, Buffer.concat(kept).toString('utf8'));
    return;
  }
  const plan = planFaults(deps.faults(), relativeToBase(pathname), deps.random);
  const decided = decide(
    {
      method,
      pathname,
      httpVersion: req.httpVersion,
      headers: req.headersDistinct,
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
  logLine(deps, { at, requestId, method, path: pathname ?? String(req.url) }, reply, status, plan.fired);
}

/** Neither faults nor the request log touch the control: it is not part of the API. */
function answerControl(req: IncomingMessage, res: ServerResponse, deps: ServerDeps, requestId: string, body: string): void {
  const reply = controlReply(
    { method: req.method ?? '', headers: req.headers, remoteAddress: req.socket.remoteAddress, body },
    deps.control,
  );
  send(res, replyOutgoing(reply), requestId);
  const faults = reply.envelope.ok ? (reply.envelope.data as { faults: string }).faults : undefined;
  deps.logger?.info(
    { requestId, method: req.method, path: CONTROL_PATH, status: reply.status, ...(faults === undefined ? {} : { faults }) },
    faults === undefined ? 'fault control refused' : 'faults changed',
  );
}

function internalError(res: ServerResponse, requestId: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  send(
    res,
    jsonOutgoing({
      status: 500,
      envelope: errorEnvelope(ERROR_CODES.internalError, messageFor(ERROR_CODES.internalError)),
      body: 'envelope',
      headers: {},
    }),
    requestId,
  );
}

/**
 * `Expect` other than 100-continue (Node handles that one: `100 Continue`, then the request).
 * Answered at once, without waiting for a body the client holds back until its expectation is
 * met, and the connection closed, so a body sent anyway is not read as the next request.
 */
function answerExpectation(req: IncomingMessage, res: ServerResponse, deps: ServerDeps): void {
  const answered = { at: Date.now(), requestId: randomUUID(), method: req.method ?? '', path: requestPathname(req.url) ?? String(req.url) };
  const reply = expectationFailedReply(deps.state.dialect);
  const outgoing = replyOutgoing(reply);
  req.resume();
  send(res, { ...outgoing, headers: { ...outgoing.headers, connection: 'close' } }, answered.requestId);
  logLine(deps, answered, reply, reply.status);
}

/**
 * CONNECT asks for a tunnel: Node hands over the bare socket and, with no listener, closes it
 * unanswered. It is a method like any other the API does not serve: decide's 405, with
 * `Allow: GET` (or a 400 without Host), written raw, then the socket closed.
 */
function answerConnect(req: IncomingMessage, socket: Duplex, deps: ServerDeps): void {
  // Node no longer watches this socket: an error on it (the client resetting) must not go unhandled.
  socket.on('error', () => socket.destroy());
  const answered = { at: Date.now(), requestId: randomUUID(), method: req.method ?? 'CONNECT', path: String(req.url) };
  const reply = decide(
    { method: answered.method, pathname: undefined, httpVersion: req.httpVersion, headers: req.headersDistinct, breach: false },
    deps.state,
  );
  socket.end(rawResponse(replyOutgoing(reply), answered.requestId));
  logLine(deps, answered, reply, reply.status);
}

/**
 * Requests Node's parser rejected (garbage request line, huge headers, a malformed chunked body,
 * a request that timed out) get an envelope written raw, as Node would answer them, after the
 * answers the connection still owes (owed.ts); when a response is half-written, a status line
 * cannot follow it, so the connection is only closed.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, deps: ServerDeps, owed: OwedAnswers): void {
  const bytes = rawResponse(replyOutgoing(clientErrorReply(deps.state.dialect, error.code)), randomUUID());
  const scheduled = owed.afterOwed(socket, () => (socket.writable ? socket.end(bytes) : socket.destroy()));
  if (scheduled === 'mid-response') socket.destroy();
}

export function createSandboxServer(deps: ServerDeps, tls?: ServerTls): Server {
  const owed = owedAnswers();
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    owed.track(req, res);
    handle(req, res, deps).catch((error: unknown) => {
      deps.logger?.error({ err: error }, 'request handler failed');
      internalError(res, randomUUID());
    });
  };
  // A missing Host is checked in `decide`, so its 400 is an envelope like every other answer.
  const options = { requireHostHeader: false };
  // An https.Server is an http.Server underneath: the same handler, close and clientError hooks.
  const server: Server = tls ? createHttpsServer({ ...options, cert: tls.cert, key: tls.key }, listener) : createServer(options, listener);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, deps, owed));
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => answerExpectation(req, res, deps));
  server.on('connect', (req: IncomingMessage, socket: Duplex) => answerConnect(req, socket, deps));
  return server;
}
