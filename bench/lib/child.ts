/**
 * A long-running child program under test: spawned without a shell, its output kept only as
 * a short tail for error messages, stopped with SIGTERM (SIGKILL after a grace period).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { waitForOk } from './wait-http.js';

export interface ChildProgram {
  readonly pid: number;
  readonly alive: () => boolean;
  /** The last lines it wrote, for an error message. */
  readonly tail: () => string;
  readonly stop: () => Promise<void>;
}

export function startProgram(file: string, args: readonly string[], env: NodeJS.ProcessEnv): ChildProgram {
  const child = spawn(file, [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer | string): void => void (output = (output + chunk.toString()).slice(-2_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.on('error', (error) => keep(`spawn error: ${error.message}\n`));
  if (child.pid === undefined) throw new Error(`could not start ${file}`);
  // A bench cut short by its time bound exits with this child still running: take it along.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  return {
    pid: child.pid,
    alive,
    tail: () => output,
    async stop() {
      if (!alive()) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A program that says nothing when it is up: started, then polled at `readyUrl` until it answers 200; stopped if it does not. */
export async function startReadyProgram(
  name: string,
  [file, ...args]: readonly [string, ...string[]],
  env: NodeJS.ProcessEnv,
  readyUrl: string,
  timeoutMs: number,
): Promise<ChildProgram> {
  const program = startProgram(file, args, env);
  try {
    await waitForOk(readyUrl, timeoutMs, program.alive);
  } catch (error) {
    await program.stop();
    throw new Error(`${name} did not start: ${(error as Error).message}\n${program.tail()}`);
  }
  return program;
}

/** Variables that could steer a child: ours and the API's, npm's, vitest's, Node's options, tracing. */
const STEERING = /^(REPAIR|npm_|VITEST|OTEL_|NODE_OPTIONS$)/;

/** This process's environment minus anything that could steer a child, plus `extra` (the tests' rig uses it too). */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !STEERING.test(name)));
  return { ...env, NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}
