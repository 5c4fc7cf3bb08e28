/**
 * Tests that drive real tools (Prometheus, promtool, Chromium, openssl, script, systemd-analyze,
 * a non-root user for yo) skip loudly where a tool is missing on a developer's machine. CI sets
 * REPAIRMON_REQUIRE_TOOLS=1, and then a missing tool fails the suite instead: a skip there
 * would let a check silently stop running.
 */
import { execFileSync } from 'node:child_process';

export const REQUIRE_TOOLS_VAR = 'REPAIRMON_REQUIRE_TOOLS';

export class MissingToolError extends Error {
  override readonly name = 'MissingToolError';
}

export function toolsRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[REQUIRE_TOOLS_VAR] === '1';
}

/**
 * Whether a suite may run. `available` false: throws when tools are required, else warns
 * on stderr (never silent) and returns false so the caller skips.
 */
export function toolAvailable(available: boolean, what: string, install: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (available) return true;
  const why = `${what} needs ${install}`;
  if (toolsRequired(env)) throw new MissingToolError(`${why}; ${REQUIRE_TOOLS_VAR}=1 makes a missing tool a failure`);
  process.stderr.write(`\n!!! SKIPPED: ${why} (CI installs it and sets ${REQUIRE_TOOLS_VAR}=1) !!!\n\n`);
  return false;
}

/** util-linux `script`, which gives a command a real terminal; `what` names the suite that needs it. */
export function scriptAvailable(what: string): boolean {
  let found = true;
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
  } catch {
    found = false;
  }
  return toolAvailable(found, what, '`script` (Debian: apt-get install bsdutils)');
}
