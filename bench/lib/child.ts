/**
 * A long-running child program under test: spawned without a shell, its output kept only as
 * a short tail for error messages, stopped with SIGTERM (SIGKILL after a grace period).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface ChildProgram {
  readonly pid: number;
  readonly alive: () => boolean;
  /** The last lines it wrote, for an error message. */
  readonly tail: () => string;
  readonly stop: () => Promise<void>;
}

const TAIL_CHARS = 2_000;
const GRACE_MS = 5_000;

export function startProgram(file: string, args: readonly string[], env: NodeJS.ProcessEnv): ChildProgram {
  const child: ChildProcess = spawn(file, [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (error) => keep(Buffer.from(`spawn error: ${error.message}\n`)));
  if (child.pid === undefined) throw new Error(`could not start ${file}`);
  const pid = child.pid;
  // A bench cut short by its time bound exits with this child still running: take it along.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  return {
    pid,
    alive: () => child.exitCode === null && child.signalCode === null,
    tail: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Variables that could steer a child: ours and the API's, npm's, vitest's, Node's options, tracing. */
const STEERING = /^(REPAIR|npm_|VITEST|OTEL_|NODE_OPTIONS$)/;

/** This process's environment minus anything that could steer a child, plus `extra` (the tests' rig uses it too). */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!STEERING.test(name)) env[name] = value;
  return { ...env, NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}
