/**
 * A hostile API on loopback: answers every request with whatever the test last scripted,
 * built from the key the request presented, so a reply can echo that key in forms a plain
 * `includes(key)` misses (JSON `\uXXXX` escapes, upper-cased, a few characters short), carry a
 * 64 KiB `error.code`, or terminal control sequences. It can also answer slowly, to use up a
 * client's time budget over several retries.
 */
import { once } from 'node:events';
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readPresentedKey } from '../../api/contract/server/index.js';

export interface HostileReply {
  readonly status: number;
  /** The raw body text; gets the presented key (empty when none was sent). */
  readonly body: (key: string) => string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Milliseconds before the answer is sent. */
  readonly delayMs?: number;
}

export interface HostileServer {
  readonly baseUrl: string;
  /** Requests seen, and the keys presented (so a test knows the echo path ran). */
  readonly seen: { path: string; keyed: boolean }[];
  set(reply: HostileReply): void;
  close(): Promise<void>;
}

/** Every character as a JSON `\uXXXX` escape: the same string once parsed, never the same text. */
export function jsonEscaped(text: string): string {
  return [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}

/** An error envelope with the code and message written exactly as given (escapes stay escapes). */
export function rawErrorEnvelope(codeText: string, messageText: string): string {
  return `{"ok":false,"error":{"code":"${codeText}","message":"${messageText}"}}`;
}

/**
 * Control sequences a terminal acts on: clear screen, an OSC window title ending in BEL, SGR
 * colour, a C1 CSI, a right-to-left override and a line separator. As JSON escapes, so the
 * parsed code holds the raw characters.
 */
export const TERMINAL_ATTACK = '\\u001b[2J\\u001b]0;owned\\u0007\\u001b[31mEVIL\\u009b1m\\u202eLIVE\\u2028x';

/** Any character that moves a terminal's cursor, changes its state, or reorders text. */
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function keyOf(req: IncomingMessage): string {
  const presented = readPresentedKey(req.headers);
  return presented.kind === 'key' ? presented.key : '';
}

export async function startHostileServer(
  initial: HostileReply = { status: 200, body: () => '{"ok":true,"data":[]}' },
): Promise<HostileServer> {
  let reply = initial;
  const seen: { path: string; keyed: boolean }[] = [];
  const server = createServer((req, res) => {
    const key = keyOf(req);
    seen.push({ path: req.url ?? '', keyed: key !== '' });
    const current = reply;
    const send = (): void => {
      if (res.destroyed) return;
      res.writeHead(current.status, { 'content-type': 'application/json', ...current.headers });
      res.end(current.body(key));
    };
    if (current.delayMs) setTimeout(send, current.delayMs);
    else send();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    seen,
    set: (next) => void (reply = next),
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
