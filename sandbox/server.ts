/**
 * The HTTP edge: reads a request, asks `decide` and the fault plan, writes the answer, logs
 * it. What Node's server would answer on its own, bare or by closing the socket (a parser
 * error, a missing Host, an unknown Expect, CONNECT), is answered with an envelope too, and
 * closing the server ends every connection, stalled ones included.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { BASE_PATH, ERROR_CODES } from '../api/contract/index.js';
import { CONTROL_PATH, type FaultControl, controlReply } from './control.js';
import { type Reply, type SandboxState, badRequestReply, clientErrorReply, decide, fail } from './decide.js';
import { type FaultPlan, type FaultRule, planFaults } from './faults/parse.js';
import { sendFault } from './faults/respond.js';
import { owedAnswers } from './owed.js';
import type { createRateLimiter } from './rate-limit.js';
import { jsonOutgoing, rawResponse, send } from './respond.js';

export interface SandboxRequestRecord {
  /** Date.now() milliseconds when the request arrived. */
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly keyAlias?: string;
  /** 0 when no response was sent (a `reset` fault). */
  readonly status: number;
}

interface ServerDeps {
  readonly state: SandboxState;
  readonly faults: () => readonly FaultRule[];
  readonly limiter: ReturnType<typeof createRateLimiter> | undefined;
  readonly random: () => number;
  readonly now: () => number;
  readonly logger: Logger | undefined;
  readonly record: (entry: SandboxRequestRecord) => void;
  /** Aborted on close, so pending latency faults stop waiting. */
  readonly closing: AbortSignal;
  /** Rewrites a decided reply before faults and sending (`--page-size`); absent: sent as decided. */
  readonly shape?: (reply: Reply, req: IncomingMessage, pathname: string | undefined) => Reply;
  readonly control: FaultControl;
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

function relativeToBase(pathname: string | undefined): string | undefined {
  if (pathname === undefined) return undefined;
  if (pathname === BASE_PATH) return '/';
  return pathname.startsWith(`${BASE_PATH}/`) ? pathname.slice(BASE_PATH.length) : undefined;
}

/**
 * Bodies are not part of the API; past this many bytes the request is answered 413 and the
 * connection closed, so a client streaming gigabytes cannot hold an answer (or memory) forever.
 */
const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/**
 * Reads the request's body to its end and drops it. `incomplete` when the body never completes:
 * the client went away, or the parser found it malformed, and then `answerClientError` speaks for
 * the request. Answering before the body is read would send a 200 for a request that then turns
 * out to be malformed, and a second, unasked-for 400.
 */
function bodyRead(req: IncomingMessage, keep?: Buffer[]): Promise<'read' | 'incomplete' | 'too_large'> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_REQUEST_BODY_BYTES) return resolve('too_large');
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

/** A request as logged; `pathname` is undefined when the target could not be read (`path` is then the target). */
type Answered = {
  readonly at: number;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly pathname?: string;
};

function arrived(req: IncomingMessage, pathname = requestPathname(req.url)): Answered {
  return { at: Date.now(), requestId: randomUUID(), method: req.method ?? '', path: pathname ?? String(req.url), pathname };
}

function logLine(
  deps: ServerDeps,
  { at, requestId, method, path }: Answered,
  reply: Reply,
  status: number,
  faults?: readonly string[],
): void {
  const { keyAlias } = reply;
  deps.record(keyAlias ? { at, method, path, keyAlias, status } : { at, method, path, status });
  const code = reply.envelope.ok ? undefined : reply.envelope.error.code;
  deps.logger?.info(
    { requestId, method, path, keyAlias, status, code, faults: faults?.length ? faults : undefined, ms: Date.now() - at },
    'request',
  );
}

function sendClosing(res: ServerResponse, reply: Reply, deps: ServerDeps, answered: Answered): void {
  const outgoing = jsonOutgoing(reply);
  send(res, { ...outgoing, headers: { ...outgoing.headers, connection: 'close' } }, answered.requestId);
  logLine(deps, answered, reply, reply.status);
}

/** RFC 9112 §6.3: a request has a body only with Transfer-Encoding or a non-zero Content-Length. */
function hasBody({ headers }: IncomingMessage): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
}

/**
 * Answers at once a request without a body (its end came with its headers), so the usual GET
 * costs no stream listeners and no promise; one with a body once the body has been read.
 */
function handle(req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> | void {
  const answered = arrived(req);
  const kept: Buffer[] | undefined = answered.pathname === CONTROL_PATH ? [] : undefined;
  if (!kept && !hasBody(req)) return answer(req, res, deps, answered);
  return bodyRead(req, kept).then((body) => {
    if (body === 'incomplete') return;
    if (body === 'too_large') {
      const detail = `Treść żądania przekracza ${MAX_REQUEST_BODY_BYTES} bajtów; API nie przyjmuje treści.`;
      sendClosing(res, badRequestReply(413, detail), deps, answered);
      res.once('finish', () => req.socket.destroySoon());
      return;
    }
    if (kept) return answerControl(req, res, deps, answered.requestId, Buffer.concat(kept).toString('utf8'));
    return answer(req, res, deps, answered);
  });
}

function answer(req: IncomingMessage, res: ServerResponse, deps: ServerDeps, answered: Answered): Promise<void> | void {
  const { pathname } = answered;
  const plan = planFaults(deps.faults(), relativeToBase(pathname), deps.random);
  const limiter = deps.limiter;
  const decided = decide(
    {
      method: answered.method,
      pathname,
      httpVersion: req.httpVersion,
      headers: req.headersDistinct,
      breach: plan.breach,
      rateLimit: limiter && ((key) => limiter.hit(key.alias, deps.now())),
    },
    deps.state,
  );
  const reply = deps.shape ? deps.shape(decided, req, pathname) : decided;
  if (plan.latencyMs === 0) return finish(res, deps, answered, reply, plan);
  return sleep(plan.latencyMs, undefined, { signal: deps.closing }).then(
    () => finish(res, deps, answered, reply, plan),
    () => undefined, // closed meanwhile: nobody waits for the answer
  );
}

function finish(res: ServerResponse, deps: ServerDeps, answered: Answered, reply: Reply, plan: FaultPlan): void {
  let status = reply.status;
  if (plan.response) status = sendFault(res, plan.response, reply, answered.requestId, { dialect: deps.state.dialect, now: deps.now() });
  else send(res, jsonOutgoing(reply), answered.requestId);
  logLine(deps, answered, reply, status, plan.fired);
}

/** Neither faults nor the request log touch the control: it is not part of the API. */
function answerControl(req: IncomingMessage, res: ServerResponse, deps: ServerDeps, requestId: string, body: string): void {
  const reply = controlReply(
    { method: req.method ?? '', headers: req.headers, remoteAddress: req.socket.remoteAddress, body },
    deps.control,
  );
  send(res, jsonOutgoing(reply), requestId);
  const faults = reply.envelope.ok ? (reply.envelope.data as { faults: string }).faults : undefined;
  deps.logger?.info(
    { requestId, method: req.method, path: CONTROL_PATH, status: reply.status, ...(faults === undefined ? {} : { faults }) },
    faults === undefined ? 'fault control refused' : 'faults changed',
  );
}

export function createSandboxServer(deps: ServerDeps, tls?: { readonly cert: string; readonly key: string }): Server {
  const owed = owedAnswers();
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    owed.track(req, res);
    const failed = (error: unknown): void => {
      deps.logger?.error({ err: error }, 'request handler failed');
      if (res.headersSent) res.destroy();
      else send(res, jsonOutgoing(fail(ERROR_CODES.internalError)), randomUUID());
    };
    try {
      handle(req, res, deps)?.catch(failed);
    } catch (error) {
      failed(error);
    }
  };
  // A missing Host is checked in `decide`, so its 400 is an envelope like every other answer.
  const options = { requireHostHeader: false };
  // An https.Server is an http.Server underneath: the same handler, close and clientError hooks.
  const server: Server = tls ? createHttpsServer({ ...options, cert: tls.cert, key: tls.key }, listener) : createServer(options, listener);
  // Parser errors (garbage request line, huge headers, a malformed chunked body, a timeout) get an
  // envelope written raw after the answers the connection still owes (owed.ts); behind a
  // half-written response a status line cannot follow, so the connection is only closed.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const bytes = rawResponse(jsonOutgoing(clientErrorReply(error.code)), randomUUID());
    if (owed.afterOwed(socket, () => (socket.writable ? socket.end(bytes) : socket.destroy())) === 'mid-response') socket.destroy();
  });
  // `Expect` other than 100-continue (Node answers that one itself): 417 (RFC 9110 §10.1.1) at once,
  // without waiting for a body the client holds back, and closed, so a body sent anyway is not a request.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const detail = 'Nieobsługiwana wartość nagłówka Expect (obsługiwane jest tylko 100-continue).';
    sendClosing(res, badRequestReply(417, detail), deps, arrived(req));
  });
  // CONNECT: Node hands over the bare socket and, with no listener, closes it unanswered. It is
  // a method the API does not serve: decide's 405 with `Allow: GET` (or a 400 without Host), raw.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    // Node no longer watches this socket: an error on it (the client resetting) must not go unhandled.
    socket.on('error', () => socket.destroy());
    const answered = arrived(req, String(req.url));
    const input = {
      method: answered.method,
      pathname: undefined,
      httpVersion: req.httpVersion,
      headers: req.headersDistinct,
      breach: false,
    };
    const reply = decide(input, deps.state);
    socket.end(rawResponse(jsonOutgoing(reply), answered.requestId));
    logLine(deps, answered, reply, reply.status);
  });
  return server;
}
