/** Runs a command to completion with a time bound and reports its wall time; never throws. */
import { execFile } from 'node:child_process';

export type ExecOutcome =
  | { readonly kind: 'ok'; readonly ms: number; readonly stdout: string }
  | { readonly kind: 'failed'; readonly ms: number; readonly code: number | string; readonly tail: string }
  | { readonly kind: 'timed_out'; readonly ms: number; readonly tail: string };

export function timedExec(
  file: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ExecOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      file,
      [...args],
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs, maxBuffer: 32 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const ms = performance.now() - started;
        const tail = `${stdout}${stderr}`.slice(-1_500);
        if (!error) resolve({ kind: 'ok', ms, stdout });
        else if (error.killed) resolve({ kind: 'timed_out', ms, tail });
        else resolve({ kind: 'failed', ms, code: error.code ?? 'unknown', tail });
      },
    );
  });
}

/** The wall time of an outcome that must have succeeded; throws with the command's tail otherwise. */
export function okMs(what: string, outcome: ExecOutcome): number {
  if (outcome.kind === 'ok') return outcome.ms;
  const why = outcome.kind === 'timed_out' ? `timed out after ${Math.round(outcome.ms)} ms` : `exited with ${outcome.code}`;
  throw new Error(`${what} ${why}:\n${outcome.tail}`);
}
