/**
 * The sandbox in its own process, so it is counted in no side of a measurement and shares no event
 * loop with what is measured. Its demo keys travel over IPC, never argv or a log line; it drains
 * its bounded request log often, so counts stay exact however long the window.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../sandbox/index.js';
import { isEntryPoint } from './cli.js';

/** Requests since the last reset: the total and by HTTP status (0 = no response). */
interface RequestCounts {
  readonly total: number;
  readonly byStatus: Readonly<Record<string, number>>;
}
type Ready = Pick<RunningSandbox, 'baseUrl' | 'keys' | 'tenants'>;
type Options = Pick<SandboxOptions, 'dataFile' | 'faults'>;

export type SandboxProcess = Awaited<ReturnType<typeof startSandboxProcess>>;

// Node 20 cannot fork a .ts file: under vitest (the soak test) the child is the compiled twin in dist/.
const HERE = fileURLToPath(import.meta.url);
const CHILD = HERE.endsWith('.ts') ? fileURLToPath(new URL('../../dist/bench/lib/sandbox-process.js', import.meta.url)) : HERE;

export async function startSandboxProcess(options: Options = {}) {
  const child = fork(CHILD, ['--child', JSON.stringify(options)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [ready] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) =>
      Promise.reject(new Error(`the sandbox process exited before it was ready (code ${String(code)})`)),
    ),
  ])) as [Ready];
  // One question at a time: every caller awaits the answer before it asks again.
  const ask = async (op: 'reset' | 'counts'): Promise<RequestCounts> => {
    const answer = once(child, 'message');
    child.send(op);
    return ((await answer) as [RequestCounts])[0];
  };
  return {
    ...ready,
    /** Secret value of a demo key, by alias: only for config files (0600) and env vars. */
    key(alias: string): string {
      const found = ready.keys.find((k) => k.alias === alias);
      if (!found) throw new Error(`the sandbox has no demo key "${alias}"`);
      return found.key;
    },
    /** Zeroes the request counts. */
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

async function serveChild(options: Options): Promise<void> {
  const sandbox = await startSandbox({ ...options, rateLimit: 'off' });
  let total = 0;
  let byStatus: Record<string, number> = {};
  const drain = (): void => {
    const records = sandbox.requests();
    sandbox.clearRequests();
    total += records.length;
    for (const r of records) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  };
  const timer = setInterval(drain, 250);
  process.on('message', (op: 'reset' | 'counts') => {
    drain();
    if (op === 'reset') [total, byStatus] = [0, {}];
    process.send?.({ total, byStatus: { ...byStatus } } satisfies RequestCounts);
  });
  process.on('disconnect', () => {
    clearInterval(timer);
    void sandbox.close().then(() => process.exit(0));
  });
  process.send?.({ baseUrl: sandbox.baseUrl, keys: sandbox.keys, tenants: sandbox.tenants } satisfies Ready);
}

if (isEntryPoint(import.meta.url) && process.argv[2] === '--child') await serveChild(JSON.parse(process.argv[3] ?? '{}') as Options);
