/**
 * The API v1 sandbox: a faithful implementation over Node's http server with demo data,
 * per-key rate limiting, fault injection and dialects (one reading per "not shown" point).
 * `startSandbox` is the one entry point; the CLI (`repairmon sandbox`), the monitor's embedded
 * mode and the tests all use it.
 */
import { randomBytes } from 'node:crypto';
import { once, setMaxListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { BASE_PATH } from '../api/contract/index.js';
import { CONTROL_PATH, type FaultControl } from './control.js';
import { loadDataFile } from './data-file.js';
import { DEFAULT_DIALECT, parseDialect } from './dialect/index.js';
import { demoData } from './demo-data.js';
import { SandboxConfigError } from './errors.js';
import { type FaultRule, parseFaultSpec } from './faults/parse.js';
import { type DemoKey, issueKeys } from './model.js';
import { loadKeysFile } from './keys-file.js';
import { MAX_PAGE_SIZE, pagingShape } from './pagination.js';
import { createRateLimiter, parseRateLimit } from './rate-limit.js';
import { sandboxState } from './state.js';
import { type SandboxRequestRecord, createSandboxServer } from './server.js';
import { existingKind, prepareTls, replaceFile } from './tls.js';

export type { DemoKey } from './model.js';
export type { SandboxRequestRecord } from './server.js';
export { isSandboxConfigError } from './errors.js';
export { DEMO_KEY_SPECS, DEMO_TENANTS } from './demo-data.js';
export { DEFAULT_DIALECT, PRESET_NAMES, dialectHelpLines, parseDialect, parseReadings } from './dialect/index.js';
export type { Dialect, ReadingsParse } from './dialect/index.js';
export { CONTROL_PATH } from './control.js';
export { FAULT_KINDS, faultHelpLines, parseFaultSpec } from './faults/parse.js';
export { MAX_PAGE_SIZE, existingKind, parseRateLimit, replaceFile };

/**
 * Where `repairmon sandbox` listens unless told otherwise. A fixed port gives a new project a
 * test base URL that works without editing; programmatic starts use port 0 instead.
 */
export const SANDBOX_DEFAULT_HOST = '127.0.0.1';
export const SANDBOX_DEFAULT_PORT = 4010;
export const SANDBOX_DEFAULT_BASE_URL = `http://${SANDBOX_DEFAULT_HOST}:${SANDBOX_DEFAULT_PORT}${BASE_PATH}`;

/** What `startSandbox` returns: its addresses, keys and dialect, the fault setter, the request log. */
export type RunningSandbox = Awaited<ReturnType<typeof startSandbox>>;

export interface SandboxOptions {
  readonly host?: string;
  readonly port?: number;
  readonly faults?: string;
  /** `N/WINDOW` such as `60/1m`, or `off` (the default here; the CLI defaults to 600/1m). */
  readonly rateLimit?: string;
  /** JSON or YAML file replacing the demo data; its slugs must be in the dialect's style. */
  readonly dataFile?: string;
  /** JSON or YAML map alias -> key value; aliases it leaves out get random values. */
  readonly keysFile?: string;
  /** Same syntax as `--dialect` (`snake-public`, `reference,index=public`); `reference` by default. */
  readonly dialect?: string;
  readonly logger?: Logger;
  /** Drives fault probabilities; Math.random by default. */
  readonly random?: () => number;
  /** Clock for the rate limiter (ms); Date.now by default. */
  readonly now?: () => number;
  /** Serve https with a CA and certificate made at start (needs `openssl`). */
  readonly tls?: boolean;
  /** With `tls`: where to write the CA certificate; a temp file (removed on close) by default. */
  readonly tlsCaOut?: string;
  /** Answer list endpoints in pages of this many items, with `Link: <...?page=N>; rel="next"`. */
  readonly pageSize?: number;
}

/** The request log keeps this many entries, so a long run cannot grow without bound. */
const MAX_RECORDS = 10_000;

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSandbox(options: SandboxOptions = {}) {
  const parsedDialect = parseDialect(options.dialect ?? DEFAULT_DIALECT);
  if (!parsedDialect.ok) throw new SandboxConfigError('dialect', parsedDialect.error);
  const { dialect } = parsedDialect;
  const size = options.pageSize;
  if (size !== undefined && (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE))
    throw new SandboxConfigError('page-size', `must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${String(size)}`);
  let faults: readonly FaultRule[] = [];
  const control: FaultControl = {
    // Hex, not base64url: a token that starts with "-" is refused as the value of --token.
    token: randomBytes(24).toString('hex'),
    setFaults(spec) {
      const parsed = parseFaultSpec(spec);
      if (parsed.ok) faults = parsed.rules;
      return parsed;
    },
  };
  const setFaults = (spec: string): void => {
    const parsed = control.setFaults(spec);
    if (!parsed.ok) throw new SandboxConfigError('faults', parsed.error);
  };
  setFaults(options.faults ?? '');
  const rate = parseRateLimit(options.rateLimit ?? 'off');
  if (!rate.ok) throw new SandboxConfigError('rate-limit', rate.error);
  const data = options.dataFile === undefined ? demoData(dialect.slug) : await loadDataFile(options.dataFile, dialect.slug);
  const keys = issueKeys(data.keys, options.keysFile === undefined ? new Map() : loadKeysFile(options.keysFile, data.keys));
  const state = sandboxState(data, keys, dialect);
  const records: SandboxRequestRecord[] = [];
  const closing = new AbortController();
  // Every request delayed by a latency fault listens on this one signal; a burst of them is
  // normal, not a leak, so Node's 10-listener warning must not fire.
  setMaxListeners(0, closing.signal);
  const host = options.host ?? '127.0.0.1';
  const tls = options.tls ? await prepareTls(host, options.tlsCaOut) : undefined;
  const scheme = tls ? 'https' : 'http';
  let hostPort = urlHost(host);
  const server = createSandboxServer(
    {
      state,
      faults: () => faults,
      control,
      limiter: rate.policy ? createRateLimiter(rate.policy) : undefined,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
      logger: options.logger,
      closing: closing.signal,
      record: (entry) => {
        records.push(entry);
        // Trimmed in batches: a splice per request once full moved 10 000 entries each time
        // (a tenth of the sandbox's CPU under wrk). `requests()` still shows the last MAX_RECORDS.
        if (records.length >= 2 * MAX_RECORDS) records.splice(0, records.length - MAX_RECORDS);
      },
      ...(options.pageSize === undefined ? {} : { shape: pagingShape(options.pageSize, scheme, () => hostPort) }),
    },
    tls,
  );
  try {
    server.listen(options.port ?? 0, host);
    await once(server, 'listening');
  } catch (error) {
    await tls?.cleanup();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  hostPort = `${urlHost(host)}:${port}`;
  const origin = `${scheme}://${hostPort}`;
  let closed: Promise<void> | undefined;
  return {
    /** `http://HOST:PORT/api/v1` (`https://` with `tls`) */
    baseUrl: `${origin}${BASE_PATH}`,
    origin,
    /** With `tls`: the throwaway CA that issued the server certificate, as PEM and as the file written. */
    ...(tls ? { ca: { pem: tls.caPem, file: tls.caFile } } : {}),
    port,
    keys: state.keys,
    tenants: [...state.tenants.keys()],
    /** The dialect it speaks: one reading of each "not shown" point of the spec. */
    dialect,
    /** The key with this alias; throws for an unknown alias. */
    key(alias: string): DemoKey {
      const found = state.keys.find((k) => k.alias === alias);
      if (!found) throw new Error(`no sandbox key with alias "${alias}" (have: ${state.keys.map((k) => k.alias).join(', ')})`);
      return found;
    },
    /** Same syntax as `--faults`; '' clears. Throws SandboxConfigError on a bad spec. */
    setFaults,
    /** Where and with what token a running sandbox takes new faults over HTTP (control.ts): loopback only. */
    control: { url: `${origin}${CONTROL_PATH}`, token: control.token },
    requests: (): readonly SandboxRequestRecord[] => records.slice(-MAX_RECORDS),
    clearRequests() {
      records.length = 0;
    },
    close(): Promise<void> {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        // Keep-alive and stalled connections would hold close() open forever.
        server.closeAllConnections();
      }).then(() => tls?.cleanup());
      return closed;
    },
  };
}
