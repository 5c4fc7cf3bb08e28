/** Helpers for the tests that drive real Prometheus, promtool and Chromium binaries. */
import { existsSync } from 'node:fs';
import { toolAvailable } from '../../helpers/tools.js';

/** The binary's path, or undefined when the test is skipped (a failure where CI requires tools). */
export function requireBinary(path: string, what: string): string | undefined {
  return toolAvailable(existsSync(path), what, `${path} (Debian: apt-get install ${path.split('/').pop()})`) ? path : undefined;
}
