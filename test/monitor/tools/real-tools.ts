/** Helpers for the tests that drive real Prometheus, promtool and Chromium binaries. */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

/** The binary's path, or undefined with a loud message saying the test is skipped. */
export function requireBinary(path: string, what: string): string | undefined {
  if (existsSync(path)) return path;
  const line = `\n!!! SKIPPING ${what}: ${path} is not installed (CI installs it; on Debian: apt-get install ${path.split('/').pop()}) !!!\n`;
  process.stderr.write(line);
  console.warn(line);
  return undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor<T>(what: string, attempt: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}
