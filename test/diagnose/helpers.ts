/** Running the built CLI as a child process, and finding a port nothing listens on. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = `${ROOT}bin/repairmon.js`;

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function assertBuilt(): void {
  if (!existsSync(`${ROOT}dist/cli/commands/probe.js`)) throw new Error('dist/ has no probe command: run `npm run build` first');
}

export function runCli(args: readonly string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Runs one emitted curl line through bash and returns the status of the final response. */
export function runCurl(line: string, key: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { env: { PATH: process.env['PATH'] ?? '', REPAIR_API_KEY: key }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('latin1')));
    child.on('error', reject);
    child.on('close', () => {
      const match = /^HTTP\/[\d.]+ (\d{3})/m.exec(out);
      resolve(match?.[1] === undefined ? undefined : Number(match[1]));
    });
  });
}
