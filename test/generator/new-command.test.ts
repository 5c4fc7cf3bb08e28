/** `repairmon new` as a user runs it (compiled, `bin/repairmon.js`): exit codes, refusals, prompts. */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_FLAGS } from '../../generators/entry.js';
import { ROOT, runCli } from '../helpers/rig.js';
import { runOnTerminal } from '../helpers/terminal.js';
import { scriptAvailable } from '../helpers/tools.js';

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

  it('a scoped package name as the directory keeps its scope in package.json, as npm create does; --package-name still wins', async () => {
    const scoped = await newIn(['@acme/repairs', '--yes', '--skip-install']);
    expect(scoped.code, scoped.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(join(scoped.cwd, '@acme', 'repairs', 'package.json'), 'utf8')) as { name: string };
    expect(pkg.name).toBe('@acme/repairs');
    // One npm would refuse as it is (capitals) keeps the old default; a trailing slash is a folder's.
    const upper = await newIn(['@Acme/Repairs', '--yes', '--skip-install']);
    expect(upper.code, upper.stderr).toBe(0);
    expect((JSON.parse(readFileSync(join(upper.cwd, '@Acme', 'Repairs', 'package.json'), 'utf8')) as { name: string }).name).toBe(
      'repairs',
    );
    const slash = await newIn(['@acme/repairs/', '--yes', '--skip-install']);
    expect((JSON.parse(readFileSync(join(slash.cwd, '@acme', 'repairs', 'package.json'), 'utf8')) as { name: string }).name).toBe(
      '@acme/repairs',
    );
    const given = await newIn(['@acme/repairs', '--yes', '--skip-install', '--package-name', '@other/sync']);
    expect(given.code, given.stderr).toBe(0);
    expect((JSON.parse(readFileSync(join(given.cwd, '@acme', 'repairs', 'package.json'), 'utf8')) as { name: string }).name).toBe(
      '@other/sync',
    );
  });

  it('takes --no-<flag> for every yes/no answer, as yo does and the missing-answers message says', async () => {
    const booleans = ANSWER_FLAGS.filter((f) => f.type === 'boolean').map((f) => f.flag);
    expect(booleans).toEqual(['github-actions', 'pagination', 'parse']);
    const missing = await newIn(['asked', '--tenant', 'rowery-nowak']);
    for (const flag of booleans) expect(missing.stderr).toContain(`--${flag} | --no-${flag}`);
    const result = await newIn(['here', '--tenant', 'rowery-nowak', '--yes', '--skip-install', ...booleans.map((f) => `--no-${f}`)]);
    expect(result.code, result.stderr).toBe(0);
    const answers = Object.values(JSON.parse(readFileSync(join(result.cwd, 'here', '.yo-rc.json'), 'utf8')) as Record<string, object>)[0];
    expect(answers).toMatchObject({ githubActions: false, pagination: false, parse: false });
  });
});

/** `repairmon new` at a terminal in a new temporary directory. */
async function newAtTerminal(args: readonly string[], steps: ReadonlyArray<readonly [string, string]>) {
  const cwd = mkdtempSync(join(tmpdir(), 'repairmon-new-tty-'));
  dirs.push(cwd);
  return { ...(await runOnTerminal(['new', ...args], steps, { cwd })), cwd };
}

describe.skipIf(!scriptAvailable('repairmon new at a terminal'))('repairmon new at a terminal', { timeout: 60_000 }, () => {
  it("asks yo's questions for what the flags leave out; Enter takes each default", async () => {
    const asked = ANSWER_FLAGS.filter((f) => f.answer !== 'name' && f.answer !== 'tenant').map(
      (f) => [f.message.slice(0, 40), '\r'] as const,
    );
    // (The first 40 characters: the terminal is 80 columns wide and wraps a longer question.)
    const run = await newAtTerminal(['shop', '--tenant', 'rowery-nowak', '--skip-install'], asked);
    expect(run.code, run.text).toBe(0);
    expect(run.typed, run.text).toBe(asked.length);
    const record = JSON.parse(readFileSync(join(run.cwd, 'shop', '.yo-rc.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(Object.values(record)[0]).toMatchObject({ name: 'shop', tenant: 'rowery-nowak', authScheme: 'bearer' });
  });

  it('Ctrl+C at a question: "cancelled, nothing written" once, exit 130', async () => {
    const run = await newAtTerminal(['ctrlc', '--skip-install'], [['npm package name', '\u0003']]);
    expect(run.code, run.text).toBe(130);
    expect(run.text.match(/cancelled, nothing written/g), run.text).toHaveLength(1);
    expect(run.text).not.toMatch(/force closed|SIGINT|\bat /);
    expect(readdirSync(run.cwd)).toEqual([]);
  });
});
