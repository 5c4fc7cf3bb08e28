/**
 * `repairmon upgrade` killed with SIGKILL part-way through putting its files in place (issue
 * 31, finding 4): the next `upgrade` finds the staging folder, says what it held, rolls it back
 * and upgrades in full, so the project ends exactly as an uninterrupted upgrade leaves it (the
 * user's edits kept), with no staging folder left, and compiles.
 *
 * The kill is exact without a hook in the product: the real CLI runs as a child with a preload
 * script of this test (`node --import`) that wraps the `commitIo.rename` every rename goes
 * through, and sends the process SIGKILL right after the Nth one. The run after the kill, which
 * only has to repair and finish, goes through N+1's CLI entry in this process (no node start).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGING_PREFIX } from '../../generators/app/staged-commit.js';
import { ROOT, runProcess } from '../helpers/rig.js';
import { CONFIG_KEY, readJson, snapshot } from './helpers.js';
import { NEXT_VERSION, makeNextPackage, repairmonHere, typechecks } from './next-package.js';

const OWN_FILE = 'src/index.ts';
let work: string;
let next: string;
let pristine: string;
let preload: string;
/** The tree an uninterrupted upgrade leaves, and how many renames it takes. */
let reference: Map<string, string>;
let renames: number;

const PRELOAD = `
const { commitIo } = await import(process.env.TEST_STAGED_COMMIT_URL);
const limit = Number(process.env.TEST_KILL_AFTER_RENAMES);
const rename = commitIo.rename;
let done = 0;
commitIo.rename = (from, to) => {
  rename(from, to);
  done += 1;
  if (done === limit) process.kill(process.pid, 'SIGKILL');
};
process.on('exit', () => process.stderr.write('renames: ' + done + '\\n'));
`;

/** N+1's `repairmon upgrade` as a child, killed after `killAfter` renames (never when 0). */
function upgradeKilledAfter(project: string, killAfter: number) {
  const env = {
    TEST_STAGED_COMMIT_URL: pathToFileURL(join(next, 'dist/generators/app/staged-commit.js')).href,
    TEST_KILL_AFTER_RENAMES: String(killAfter),
  };
  const args = ['--import', pathToFileURL(preload).href, join(next, 'bin/repairmon.js'), 'upgrade', project, '--skip-install'];
  // Generous: a run cut by this timeout would also end with 128, before its commit.
  return runProcess(process.execPath, args, { cwd: work, env, timeoutMs: 180_000 });
}

/** N+1's `repairmon upgrade` to its end, in this process. */
const upgradeHere = (project: string) => repairmonHere(next, ['upgrade', project, '--skip-install']);

function copyOfPristine(name: string): string {
  cpSync(pristine, join(work, name), { recursive: true });
  return join(work, name);
}

const stagingFolders = (project: string): string[] => readdirSync(project).filter((n) => n.startsWith(STAGING_PREFIX));

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'upgrade-crash-'));
  next = join(work, 'next-package');
  makeNextPackage(next);
  preload = join(work, 'kill-after-renames.mjs');
  writeFileSync(preload, PRELOAD);
  process.chdir(work);
  const made = await repairmonHere(ROOT, ['new', 'pristine', '--yes', '--skip-install']);
  expect(made.code, made.stderr).toBe(0);
  pristine = join(work, 'pristine');
  writeFileSync(join(pristine, OWN_FILE), `${readFileSync(join(pristine, OWN_FILE), 'utf8')}// the integrator's edit\n`);
  const clean = copyOfPristine('reference');
  const run = await upgradeKilledAfter(clean, 0);
  expect(run.code, run.stderr).toBe(0);
  renames = Number(/renames: (\d+)/.exec(run.stderr)?.[1]);
  reference = snapshot(clean);
}, 400_000);

afterAll(() => {
  process.chdir(ROOT);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('upgrade killed with SIGKILL while putting files in place', { timeout: 300_000 }, () => {
  it('the uninterrupted upgrade (what every repaired project must equal) renames enough to kill it in between, and compiles', async () => {
    expect(renames).toBeGreaterThan(6);
    expect((readJson(join(work, 'reference', '.yo-rc.json'))[CONFIG_KEY] as { toolkit: { version: string } }).toolkit.version).toBe(
      NEXT_VERSION,
    );
    expect(reference.get(OWN_FILE)).toContain("// the integrator's edit");
    const project = copyOfPristine('compiles');
    expect((await upgradeHere(project)).code).toBe(0);
    await typechecks(project);
  });

  it.each([
    ['after the journal, before any file moved', () => 1],
    ["after 3 renames (the issue's point)", () => 3],
    ['half-way', () => Math.floor(renames / 2)],
    ['before .yo-rc.json is put in place', () => renames - 1],
    ['after the last rename, before the staging folder is removed', () => renames],
  ])('%s: the next upgrade reports the folder, rolls it back and upgrades in full', async (_when, point) => {
    const project = copyOfPristine(`killed-${point()}`);
    const killed = await upgradeKilledAfter(project, point());
    expect(killed.code).toBe(128);
    const left = stagingFolders(project);
    expect(left).toHaveLength(1);
    // Killed before it, .yo-rc.json never names the new version (moved aside, it is missing for a moment).
    const rc = join(project, '.yo-rc.json');
    if (point() < renames && existsSync(rc))
      expect((readJson(rc)[CONFIG_KEY] as { toolkit: { version: string } }).toolkit.version).not.toBe(NEXT_VERSION);

    const again = await upgradeHere(project);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`${left[0]} was left by an interrupted run (killed while putting its files in place)`);
    expect(again.stderr).toMatch(/rolled it back:\n {2}put back \d+ file\(s\) it had replaced or removed: \S/);
    expect(stagingFolders(project)).toEqual([]);
    expect(snapshot(project)).toEqual(reference);
  });
});
