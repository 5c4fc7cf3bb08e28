/** `repairmon new` as a user runs it (compiled, `bin/repairmon.js`): exit codes and refusals. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/rig.js';

const dirs: string[] = [];

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'commands', 'new.js'))) throw new Error('dist/ is missing: run "npm run build" first');
});
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newIn(args: readonly string[]) {
  const cwd = mkdtempSync(join(tmpdir(), 'repairmon-new-'));
  dirs.push(cwd);
  // execFile gives the child a pipe, not a terminal: the non-interactive path.
  return runCli(['new', ...args], { cwd }).then((result) => ({ ...result, cwd }));
}

describe('repairmon new', { timeout: 30_000 }, () => {
  it('without a terminal and with answers missing: exit 2, one message listing the flags, nothing written', async () => {
    const result = await newIn(['proj', '--tenant', 'rowery-nowak']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('repairmon new: No terminal to ask on');
    expect(result.stderr).toContain('--production-base-url URL');
    // The refusal is the first and only thing said: yeoman's generic task-failure line is muted.
    expect(result.stderr).not.toContain('An error occured');
    expect(readdirSync(result.cwd)).toEqual([]);
  });

  it('a bad flag value: exit 2 naming the flag, nothing written', async () => {
    const result = await newIn(['proj', '--yes', '--test-base-url', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--test-base-url is not a URL.*"nope"/);
    expect(result.stderr.trimStart().startsWith('repairmon new: Invalid flags')).toBe(true);
    expect(readdirSync(result.cwd)).toEqual([]);
  });

  it('usage errors exit 2: unknown flag, contradicting flags, two directories', async () => {
    for (const args of [
      ['--tennant', 'x'],
      ['--github-actions', '--no-github-actions'],
      ['a', 'b'],
    ]) {
      const result = await newIn(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(readdirSync(result.cwd)).toEqual([]);
    }
  });

  it('--yes --no-github-actions into a directory argument, as root or not', async () => {
    const result = await newIn(['here', '--yes', '--skip-install', '--no-github-actions']);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(result.cwd, 'here', 'src', 'check.ts'))).toBe(true);
    expect(existsSync(join(result.cwd, 'here', '.github'))).toBe(false);
  });
});
