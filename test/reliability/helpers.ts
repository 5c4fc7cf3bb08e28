/**
 * Rigs for the cross-cutting reliability proofs: an unhandled-rejection trap, a second origin
 * that records what reaches it, `serve` as a child with its status URL, and the markdown table
 * written for the closing note. Child processes themselves: `../helpers/rig.ts`.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { KEY_PREFIXES } from '../../api/contract/index.js';
import { type Watched, spawnCli, waitFor, waitForOutput } from '../helpers/rig.js';

/** A maker of temporary folders for one test file (call it at its top level): removed after its tests. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** A key-shaped value nobody else could produce: random per run, easy to grep for. */
export function makeCanary(): string {
  return `${KEY_PREFIXES.test}CANARY${randomBytes(18).toString('hex')}`;
}

export interface RejectionTrap {
  readonly seen: unknown[];
  dispose(): void;
}

/** Records every unhandled rejection and uncaught exception while installed. */
export function trapUnhandled(): RejectionTrap {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown): void => void seen.push(reason);
  const onException = (error: unknown): void => void seen.push(error);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    seen,
    dispose() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    },
  };
}

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface Recorder {
  readonly origin: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

/** The "other origin": answers a valid envelope so a client that followed would be content. */
export async function startRecorder(): Promise<Recorder> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true,"data":[]}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** Writes a markdown table into the OS temp dir and returns its path. */
export function writeMarkdownTable(file: string, title: string, header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    `# ${title}`,
    '',
    `| ${header.map(cell).join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
    '',
  ];
  const path = join(tmpdir(), file);
  writeFileSync(path, lines.join('\n'));
  return path;
}

/**
 * A `targets:` entry probing the sandbox every second with one tenant key (`secret` is the key's
 * `secret: ...` or `secretFile: ...` field), no canaries: the config the serve-reload tests start from.
 */
export function sandboxTargetYaml(baseUrl: string, secret: string): string {
  return [
    '  - name: sandbox',
    `    baseUrl: ${baseUrl}`,
    '    schedule: "* * * * * *"',
    '    timeout: 500ms',
    '    canaries: false',
    '    keys:',
    `      - { alias: nowak-test, kind: tenant, tenant: rowery-nowak, ${secret} }`,
  ].join('\n');
}

export interface ServingChild {
  readonly serve: Watched;
  /** The status page's base URL, e.g. http://127.0.0.1:PORT. */
  readonly url: string;
  readonly metrics: () => Promise<string>;
  /** `repairmon_probes_total` for the clients endpoint with outcome ok. */
  readonly clientsOk: () => Promise<number>;
  /** Waits up to 10 s for `what` to hold; fails the test if it does not. */
  readonly until: (what: () => Promise<boolean>) => Promise<void>;
}

/** `repairmon serve --config FILE` on a free loopback port, with the status URL it printed. */
export async function serveChild(file: string, env: NodeJS.ProcessEnv): Promise<ServingChild> {
  const serve = spawnCli(['serve', '--config', file, '--listen', '127.0.0.1:0', '--log-level', 'info'], { env });
  let url: string;
  try {
    url = (await waitForOutput(serve.stdout, /status (http:\/\/127\.0\.0\.1:\d+)\//, 30_000))[1]!;
  } catch (error) {
    serve.child.kill('SIGKILL');
    throw error;
  }
  const metrics = async (): Promise<string> => (await fetch(`${url}/metrics`)).text();
  return {
    serve,
    url,
    metrics,
    clientsOk: async () =>
      Number(/repairmon_probes_total\{[^}]*endpoint="clients"[^}]*outcome="ok"[^}]*\} (\d+)/.exec(await metrics())?.[1] ?? 0),
    async until(what) {
      await waitFor(what, { timeoutMs: 10_000, everyMs: 100 });
    },
  };
}
