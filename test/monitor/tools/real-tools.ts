/** Helpers for the tests that drive real Prometheus, promtool and Chromium binaries. */
import { existsSync } from 'node:fs';
import { toolAvailable } from '../../helpers/tools.js';

/** The binary's path, or undefined when the test is skipped (a failure where CI requires tools). */
export function requireBinary(path: string, what: string): string | undefined {
  return toolAvailable(existsSync(path), what, `${path} (Debian: apt-get install ${path.split('/').pop()})`) ? path : undefined;
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
