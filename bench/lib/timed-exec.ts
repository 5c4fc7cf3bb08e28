/** Runs a command to completion within a time bound: its wall time in ms, or an error naming it with the tail of its output. */
import { execFile } from 'node:child_process';

export function timedMs(
  what: string,
  [file, ...args]: readonly [string, ...string[]],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<number> {
  const started = performance.now();
  const settings = {
    cwd: options.cwd,
    env: options.env,
    timeout: options.timeoutMs,
    maxBuffer: 32 * 1024 * 1024,
    encoding: 'utf8' as const,
  };
  return new Promise((resolve, reject) => {
    execFile(file, args, settings, (error, stdout, stderr) => {
      const ms = performance.now() - started;
      if (!error) return resolve(ms);
      const why = error.killed ? `timed out after ${Math.round(ms)} ms` : `exited with ${error.code ?? 'unknown'}`;
      reject(new Error(`${what} ${why}:\n${`${stdout}${stderr}`.slice(-1_500)}`));
    });
  });
}
