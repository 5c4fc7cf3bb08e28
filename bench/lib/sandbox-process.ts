/**
 * The sandbox in its own process, so its CPU is counted in neither side of a comparison and
 * it does not share an event loop with the monitor under test. The parent talks to it over
 * IPC: the demo key travels in an IPC message, never argv or a log line. The child drains the
 * sandbox's bounded request log often, so counts stay exact however long the window.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../sandbox/index.js';
import { isEntryPoint } from './cli.js';

export interface RequestCounts {
  readonly total: number;
  /** HTTP status -> count; 0 = no response (reset). */
  readonly byStatus: Readonly<Record<string, number>>;
}

export interface SandboxProcess {
  readonly pid: number;
  readonly baseUrl: string;
  /** Secret value of a demo key, by alias: only for config files (0600) and env vars. */
  readonly keys: Readonly<Record<string, string>>;
  /** Zeroes the request counts. */
  resetCounts(): Promise<void>;
  counts(): Promise<RequestCounts>;
  close(): Promise<void>;
}

type ToChild = { readonly op: 'reset' | 'counts'; readonly id: number };
type FromChild =
  | { readonly op: 'ready'; readonly baseUrl: string; readonly keys: Record<string, string> }
  | { readonly op: 'counts'; readonly id: number; readonly counts: RequestCounts };

const DRAIN_EVERY_MS = 250;

export async function startSandboxProcess(): Promise<SandboxProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [ready] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) =>
      Promise.reject(new Error(`the sandbox process exited before it was ready (code ${String(code)})`)),
    ),
  ])) as [FromChild];
  if (ready.op !== 'ready') throw new Error(`the sandbox process sent "${ready.op}" before "ready"`);
  let nextId = 0;
  const ask = (op: ToChild['op']): Promise<RequestCounts> =>
    new Promise((resolve) => {
      const id = (nextId += 1);
      const onMessage = (message: FromChild): void => {
        if (message.op !== 'counts' || message.id !== id) return;
        child.off('message', onMessage);
        resolve(message.counts);
      };
      child.on('message', onMessage);
      child.send({ op, id } satisfies ToChild);
    });
  return {
    pid: child.pid ?? 0,
    baseUrl: ready.baseUrl,
    keys: ready.keys,
    resetCounts: async () => void (await ask('reset')),
    counts: () => ask('counts'),
    async close() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}

async function serveChild(): Promise<void> {
  const sandbox = await startSandbox({ rateLimit: 'off' });
  let total = 0;
  let byStatus: Record<string, number> = {};
  const drain = (): void => {
    const records = sandbox.requests();
    sandbox.clearRequests();
    total += records.length;
    for (const r of records) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  };
  const timer = setInterval(drain, DRAIN_EVERY_MS);
  process.on('message', (message: ToChild) => {
    drain();
    if (message.op === 'reset') {
      total = 0;
      byStatus = {};
    }
    process.send?.({ op: 'counts', id: message.id, counts: { total, byStatus: { ...byStatus } } } satisfies FromChild);
  });
  process.on('disconnect', () => {
    clearInterval(timer);
    void sandbox.close().then(() => process.exit(0));
  });
  const keys = Object.fromEntries(sandbox.keys.map((k) => [k.alias, k.key]));
  process.send?.({ op: 'ready', baseUrl: sandbox.baseUrl, keys } satisfies FromChild);
}

if (isEntryPoint(import.meta.url) && process.argv.includes('--child')) await serveChild();
