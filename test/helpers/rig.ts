/**
 * The one rig for child processes in tests: `repairmon` as a user runs it (the compiled
 * `bin/repairmon.js`, so `npm run build` first; `npm test` does), its sandbox, any other program,
 * a clean environment, and waiting on a condition instead of a fixed sleep.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { childEnv } from '../../bench/lib/child.js';

export { childEnv } from '../../bench/lib/child.js';
/** A port that was just free, for a program that cannot listen on port 0 and say which it got. */
export { freePort } from '../../bench/lib/port.js';

/**
 * A port nothing listens on, so a connection is refused at once: 2, below 1024 where no test
 * binds (1 is on fetch's bad-port list, which refuses it before connecting). A port that was
 * just free could be taken by another test worker's listen(0) before the connection is tried.
 */
export function closedPort(): Promise<number> {
  return Promise.resolve(2);
}

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin', 'repairmon.js');

/** Builds `dist/` when a bare `vitest run` on a fresh clone has not (`npm test` builds first). */
export function ensureBuilt(): void {
  if (!existsSync(join(ROOT, 'dist/cli/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
}

export interface SpawnOptions {
  /** Variables set on top of `childEnv()` (an undefined value removes one). */
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Written to stdin, which is then closed (closed at once when not given). */
  readonly stdin?: string;
  /** Another `bin/repairmon.js` (an unpacked tarball, an image's layout). */
  readonly bin?: string;
  /** Another Node to run `repairmon` with (a line from test/runtime/node-lines.test.ts). */
  readonly node?: string;
}

export interface Watched {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Every distinct argv read from /proc/<pid>/cmdline while the process ran. */
  readonly cmdlines: Set<string>;
  /** The exit code (128 after a signal) once the process has exited and its streams closed. */
  readonly exited: Promise<number>;
}

export interface ProcessRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time, for the figures a suite prints (never asserted). */
  readonly ms: number;
}

function readCmdline(pid: number | undefined): string | undefined {
  if (pid === undefined) return undefined;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return undefined;
  }
}

/** Spawns a program, collecting its output and sampling its argv every 25 ms until it exits. */
export function spawnProcess(file: string, args: readonly string[], options: SpawnOptions = {}): Watched {
  const child = spawn(file, [...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...childEnv(), ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  child.stdin.on('error', () => undefined); // a child that exits before reading its stdin
  child.stdin.end(options.stdin);
  const cmdlines = new Set<string>();
  const sample = (): void => {
    const line = readCmdline(child.pid);
    if (line) cmdlines.add(line);
  };
  sample();
  const timer = setInterval(sample, 25);
  const exited = new Promise<number>((done) => {
    child.on('error', (error) => {
      err += String(error);
      clearInterval(timer);
      done(127);
    });
    child.on('close', (code, signal) => {
      clearInterval(timer);
      done(code ?? (signal ? 128 : 1));
    });
  });
  return { child, stdout: () => out, stderr: () => err, cmdlines, exited };
}

/** Runs a program to its end; killed (SIGKILL) after `timeoutMs`. */
export async function runProcess(
  file: string,
  args: readonly string[],
  options: SpawnOptions & { readonly timeoutMs?: number } = {},
): Promise<ProcessRun> {
  const started = performance.now();
  const run = spawnProcess(file, args, options);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  const code = await run.exited.finally(() => clearTimeout(timer));
  return { code, stdout: run.stdout(), stderr: run.stderr(), ms: performance.now() - started };
}

/** `repairmon` talks to loopback servers here: a developer's proxy must not steer it (a test that wants one sets it). */
function cliOptions<T extends SpawnOptions>(options: T): T {
  const proxies = Object.keys(process.env).filter((name) => /^(https?|all)_proxy$/i.test(name));
  return { ...options, env: { ...Object.fromEntries(proxies.map((name) => [name, undefined])), ...options.env } };
}

/** `node bin/repairmon.js ARGS` as a child that keeps running. */
export function spawnCli(args: readonly string[], options: SpawnOptions = {}): Watched {
  return spawnProcess(options.node ?? process.execPath, [options.bin ?? BIN, ...args], cliOptions(options));
}

/** `node bin/repairmon.js ARGS` to its end. */
export function runCli(args: readonly string[], options: SpawnOptions & { readonly timeoutMs?: number } = {}): Promise<ProcessRun> {
  return runProcess(options.node ?? process.execPath, [options.bin ?? BIN, ...args], cliOptions(options));
}

export interface SandboxKey {
  readonly alias: string;
  readonly kind: 'platform' | 'tenant';
  readonly tenant: string | null;
  readonly key: string;
  readonly environment: string;
}

export interface SandboxProcess {
  readonly baseUrl: string;
  readonly keys: readonly SandboxKey[];
  /** Everything the `--json` line says (dialect, control URL...). */
  readonly line: Record<string, unknown>;
  readonly process: Watched;
  key(alias: string): SandboxKey;
  /** SIGTERM, then the exit code. */
  close(): Promise<number>;
}

/** `repairmon sandbox --port 0 --json ARGS` as a child; its keys come from its one JSON line, never argv. */
export async function startSandboxProcess(args: readonly string[] = [], options: SpawnOptions = {}): Promise<SandboxProcess> {
  const sandbox = spawnCli(['sandbox', '--port', '0', '--json', '--log-level', 'silent', ...args], options);
  const firstLine = (): string | undefined => /^.*\n/.exec(sandbox.stdout())?.[0];
  const ended = (): boolean => sandbox.child.exitCode !== null || sandbox.child.signalCode !== null;
  await waitFor(() => firstLine() !== undefined || ended(), { what: 'the sandbox JSON line', timeoutMs: 30_000 });
  const line = firstLine();
  if (line === undefined) throw new Error(`repairmon sandbox ${args.join(' ')} exited: ${sandbox.stderr()}`);
  const parsed = JSON.parse(line) as Record<string, unknown> & { baseUrl: string; keys: SandboxKey[] };
  return {
    baseUrl: parsed.baseUrl,
    keys: parsed.keys,
    line: parsed,
    process: sandbox,
    key(alias) {
      const found = parsed.keys.find((k) => k.alias === alias);
      if (!found) throw new Error(`no sandbox key ${alias}`);
      return found;
    },
    close() {
      if (sandbox.child.exitCode === null && sandbox.child.signalCode === null) sandbox.child.kill('SIGTERM');
      return sandbox.exited;
    },
  };
}

export interface WaitOptions {
  /** What is awaited, for the timeout's message (a function: read when it times out). */
  readonly what?: string | (() => string);
  readonly timeoutMs?: number;
  /** How often the condition is tried; raise it for a condition that costs a request. */
  readonly everyMs?: number;
}

type Truthy<T> = Exclude<T, false | null | undefined | '' | 0>;

/**
 * Resolves with the condition's first truthy value. A throw counts as not yet (a server still
 * starting refuses connections); after `timeoutMs` it rejects saying what it waited for and the
 * last error.
 */
export async function waitFor<T>(condition: () => T | Promise<T>, options: WaitOptions = {}): Promise<Truthy<T>> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  let lastError: string | undefined;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as Truthy<T>;
    } catch (error) {
      lastError = String(error);
    }
    if (Date.now() > deadline) {
      const what = typeof options.what === 'function' ? options.what() : (options.what ?? 'the condition');
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError === undefined ? '' : ` (last error: ${lastError})`}`);
    }
    await new Promise((r) => setTimeout(r, options.everyMs ?? 25));
  }
}

/** The first match of `pattern` in a child's growing output (a banner, a URL it printed). */
export function waitForOutput(text: () => string, pattern: RegExp, timeoutMs = 15_000): Promise<RegExpExecArray> {
  return waitFor(() => pattern.exec(text()), { what: () => `${String(pattern)}; got:\n${text()}`, timeoutMs });
}
