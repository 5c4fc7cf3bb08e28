/** Helpers for the tests that drive real Prometheus, promtool and Chromium binaries. */
import { existsSync } from 'node:fs';

/** The binary's path, or undefined with a loud message saying the test is skipped. */
export function requireBinary(path: string, what: string): string | undefined {
  if (existsSync(path)) return path;
  const line = `\n!!! SKIPPING ${what}: ${path} is not installed (CI installs it; on Debian: apt-get install ${path.split('/').pop()}) !!!\n`;
  process.stderr.write(line);
  console.warn(line);
  return undefined;
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
