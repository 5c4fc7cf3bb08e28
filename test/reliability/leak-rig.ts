/**
 * For the secrets canary: an origin that echoes the presented key back everywhere a careless
 * server might (error message, data, a response header), and a ledger of every text the run
 * produced, checked for the canary values at the end with the place each leak came from.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_CODES } from '../../api/contract/index.js';
import { errorEnvelope, readPresentedKey } from '../../api/contract/server/index.js';

export interface EchoOrigin {
  readonly baseUrl: string;
  /** How many requests carried a key (so the echo path is known to have run). */
  keyed(): number;
  close(): Promise<void>;
}

/**
 * `/tenants/{t}/clients` answers 200 with the key inside `data`; everything else answers 401
 * `unauthorized` whose message quotes the key. Every answer carries it in `x-echo-key`.
 */
export async function startEchoOrigin(): Promise<EchoOrigin> {
  let keyed = 0;
  const server = createServer((req, res) => {
    const presented = readPresentedKey(req.headers);
    const key = presented.kind === 'key' ? presented.key : '';
    if (key) keyed += 1;
    const ok = /\/tenants\/[^/]+\/clients$/.test(req.url ?? '');
    const body = ok
      ? { ok: true, data: [{ id: 'c1', echoedKey: key }] }
      : errorEnvelope(ERROR_CODES.unauthorized, `Nieprawidłowy klucz API: ${key}`);
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json', 'x-echo-key': key || 'none' });
    res.end(JSON.stringify(body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    keyed: () => keyed,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** Width of a run of a key's characters that counts as showing it: a partial key is a leak too. */
export const PARTIAL_RUN = 12;

/** Every PARTIAL_RUN-character run of a key, after its public prefix (`rs_test_`). */
export function keyRuns(value: string, prefixLength = 8): string[] {
  const secret = value.slice(prefixLength);
  const runs: string[] = [];
  for (let i = 0; i + PARTIAL_RUN <= secret.length; i += 1) runs.push(secret.slice(i, i + PARTIAL_RUN));
  return runs;
}

export interface Ledger {
  /** Records one text (output, page, file, argv) under a label saying where it came from. */
  add(label: string, text: string): void;
  readonly size: number;
  /** Labels whose text shows any of the values, whole or any 12-character run of it, with its last 4. */
  leaks(values: readonly string[]): string[];
  labels(): string[];
}

export function createLedger(): Ledger {
  const entries: { label: string; text: string }[] = [];
  return {
    add: (label, text) => void entries.push({ label, text }),
    get size() {
      return entries.length;
    },
    leaks: (values) =>
      entries.flatMap((e) =>
        values.filter((v) => keyRuns(v).some((run) => e.text.includes(run))).map((v) => `${e.label} (…${v.slice(-4)})`),
      ),
    labels: () => entries.map((e) => e.label),
  };
}
