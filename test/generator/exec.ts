/** Runs a child process without blocking the event loop (the sandbox lives in this process). */
import { execFile } from 'node:child_process';

export interface ExecResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

export function exec(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<ExecResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      file,
      [...args],
      { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr, ms: performance.now() - started });
      },
    );
  });
}

/** The parent's environment minus anything that could steer the generated project or npm. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('REPAIR_API_') || name.startsWith('npm_') || name === 'NODE_OPTIONS' || name.startsWith('VITEST')) continue;
    env[name] = value;
  }
  return { ...env, NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}
