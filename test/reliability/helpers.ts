/**
 * Shared rigs for the cross-cutting reliability proofs: an unhandled-rejection trap, a port
 * nobody listens on, a second origin that records what reaches it, child processes whose argv
 * is sampled from /proc while they run, and the markdown table written for the closing note.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { KEY_PREFIXES } from '../../api/contract/index.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin', 'repairmon.js');

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

/** A port that was just free: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
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

export interface Watched {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Every distinct argv read from /proc/<pid>/cmdline while the process ran. */
  readonly cmdlines: Set<string>;
  /** Resolves with the exit code once the process has exited and its streams closed. */
  readonly exited: Promise<number>;
}

function readCmdline(pid: number | undefined): string | undefined {
  if (pid === undefined) return undefined;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return undefined;
  }
}

export interface SpawnOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly stdin?: string;
}

/** Spawns `node bin/repairmon.js ARGS`, sampling its argv every 25 ms until it exits. */
export function spawnRepairmon(args: readonly string[], options: SpawnOptions): Watched {
  return spawnWatched(process.execPath, [BIN, ...args], options);
}

/** Spawns a process, collecting its output and sampling its argv every 25 ms until it exits. */
export function spawnWatched(file: string, args: readonly string[], options: SpawnOptions): Watched {
  const child = spawn(file, [...args], { cwd: options.cwd ?? ROOT, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (err += c));
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  else child.stdin?.end();
  const cmdlines = new Set<string>();
  const sample = (): void => {
    const line = readCmdline(child.pid);
    if (line) cmdlines.add(line);
  };
  sample();
  const timer = setInterval(sample, 25);
  const exited = new Promise<number>((done) => {
    child.on('close', (code, signal) => {
      clearInterval(timer);
      done(code ?? (signal ? 128 : 1));
    });
  });
  return { child, stdout: () => out, stderr: () => err, cmdlines, exited };
}

/** Resolves when `text()` matches, or rejects after `ms` with what was seen. */
export async function waitFor(text: () => string, pattern: RegExp, ms = 15_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const match = pattern.exec(text());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)}; got:\n${text()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The parent's environment minus anything that could steer a child (vitest, npm, the API). */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('REPAIR_API_') || name.startsWith('npm_') || name === 'NODE_OPTIONS' || name.startsWith('VITEST')) continue;
    env[name] = value;
  }
  return { ...env, NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
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

export interface ServingChild {
  readonly serve: Watched;
  /** The status page's base URL, e.g. http://127.0.0.1:PORT. */
  readonly url: string;
  metrics(): Promise<string>;
  /** `repairmon_probes_total` for the clients endpoint with outcome ok. */
  clientsOk(): Promise<number>;
  /** Polls `what` for up to 10 s, then asserts it. */
  until(what: () => Promise<boolean>): Promise<void>;
}

/** `repairmon serve --config FILE` on a free loopback port, with the status URL it printed. */
export async function serveChild(file: string, env: NodeJS.ProcessEnv): Promise<ServingChild> {
  const serve = spawnRepairmon(['serve', '--config', file, '--listen', '127.0.0.1:0', '--log-level', 'info'], { env });
  let url: string;
  try {
    url = (await waitFor(serve.stdout, /status (http:\/\/127\.0\.0\.1:\d+)\//, 30_000))[1]!;
  } catch (error) {
    serve.child.kill('SIGKILL');
    throw error;
  }
  const metrics = async (): Promise<string> => (await fetch(`${url}/metrics`)).text();
  return {
    serve,
    url,
    metrics,
    clientsOk: async () => Number(/repairmon_probes_total\{[^}]*endpoint="clients"[^}]*outcome="ok"[^}]*\} (\d+)/.exec(await metrics())?.[1] ?? 0),
    async until(what) {
      for (let i = 0; i < 100 && !(await what()); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await what()).toBe(true);
    },
  };
}
