/** Runs a command line tool to completion, capturing its output; never throws on a non-zero exit. */
import { spawn } from 'node:child_process';

export interface ToolRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runTool(command: string, args: readonly string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
