/**
 * Running commands as the non-root integrator the end-to-end tests play. As root, through
 * `runuser -m -u repairdev` (CI creates the user; YO_TEST_USER picks another): `-m` hands the
 * whole environment over, so keys travel in variables, never in argv. As any other user,
 * directly. With no such user under root the suites skip loudly (or fail with
 * REPAIRMON_REQUIRE_TOOLS=1).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { lchownSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ProcessRun, runProcess } from '../helpers/rig.js';

export const TEST_USER = process.env['YO_TEST_USER'] ?? 'repairdev';

export type Runner =
  | { readonly kind: 'self' }
  | { readonly kind: 'runuser'; readonly user: string; readonly uid: number; readonly gid: number; readonly home: string }
  | { readonly kind: 'skip'; readonly why: string };

export function pickRunner(user: string = TEST_USER): Runner {
  if (process.getuid?.() !== 0) return { kind: 'self' };
  try {
    const entry = execFileSync('getent', ['passwd', user], { encoding: 'utf8' }).trim().split(':');
    return { kind: 'runuser', user, uid: Number(entry[2]), gid: Number(entry[3]), home: entry[5] ?? '' };
  } catch {
    return { kind: 'skip', why: `running as root and user "${user}" does not exist (create it: useradd --create-home ${user})` };
  }
}

/** The command line that runs `file` as the runner's user. */
export function command(runner: Runner, file: string, args: readonly string[]): [string, string[]] {
  if (runner.kind === 'runuser') return ['runuser', ['-m', '-u', runner.user, '--', file, ...args]];
  return [file, [...args]];
}

export function runAs(
  runner: Runner,
  file: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ProcessRun> {
  const [cmd, argv] = command(runner, file, args);
  return runProcess(cmd, argv, options);
}

export function spawnAs(
  runner: Runner,
  file: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): ChildProcess {
  const [cmd, argv] = command(runner, file, args);
  return spawn(cmd, argv, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Gives the user what the test made for them (a temp tree made by root); a symlink itself, never what it points to. */
export function giveToUser(runner: Runner, path: string): void {
  if (runner.kind !== 'runuser') return;
  lchownSync(path, runner.uid, runner.gid);
  if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) giveToUser(runner, join(path, name));
}
