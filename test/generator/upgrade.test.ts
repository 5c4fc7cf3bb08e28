/**
 * An upgrade from this toolkit version (N) to a simulated N+1: a copy of this package (built
 * `dist/`, `bin/`, `generators/`, `templates/`, `api/`) with a bumped version, a changed, an
 * added and a removed `api/` file, a changed OpenAPI builder (so `openapi.yaml` changes), a
 * raised dependency and one more script. The project is
 * generated with N through the built CLI, edited the way an integrator does, then upgraded
 * with N+1's `repairmon upgrade`: refused while a toolkit file is edited, then with --force.
 * Also a version-only release (N+0.0.1: nothing but the version), a project from before the
 * toolkit recorded its files (toolkit straight under src/), a record naming files outside the
 * toolkit folder and a package.json that is not an object.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../generators/app/toolkit-record.js';
import { ROOT, runCli } from '../helpers/rig.js';
import { CONFIG_KEY, readJson, snapshot } from './helpers.js';
import { NEXT_VERSION, copyPackage, makeNextPackage, repairmonHere, typechecks } from './next-package.js';

const N = (readJson(join(ROOT, 'package.json')) as { version: string }).version;
const PATCH_VERSION = '99.0.1';
const OWNED = [
  'src/handlers.ts',
  'src/index.ts',
  'src/config.ts',
  'README.md',
  '.env.example',
  '.github/workflows/ci.yml',
  'test/config.test.ts',
];
const EDITED_TOOLKIT = 'src/repair-service/client/retry.ts';

let work: string;
let next: string;
let patch: string;

type Pkg = { dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> };

function toolkitRecord(project: string): { version: string; dir: string; files: { [path: string]: string } } {
  return (
    readJson(join(project, '.yo-rc.json'))[CONFIG_KEY] as { toolkit: { version: string; dir: string; files: { [path: string]: string } } }
  ).toolkit;
}

/** Yeoman's adapter logs (the summary too) on stderr; read both. */
const out = (run: { stdout: string; stderr: string }): string => run.stdout + run.stderr;

/** `repairmon` of the package at `pkgRoot` as a user runs it: a child process in `cwd`. */
function repairmon(pkgRoot: string, args: readonly string[], cwd = work) {
  return runCli(args, { cwd, bin: join(pkgRoot, 'bin', 'repairmon.js') });
}

/** One project generated with N; each test upgrades its own copy. */
let pristine: string;
/** The projects upgraded in full below, type-checked together at the end (one tsc). */
const upgradedInFull: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'commands', 'upgrade.js'))) throw new Error('dist/ is missing: run "npm run build" first');
  work = mkdtempSync(join(tmpdir(), 'upgrade-'));
  next = join(work, 'next-package');
  makeNextPackage(next);
  patch = join(work, 'patch-package');
  copyPackage(patch, PATCH_VERSION);
  process.chdir(work);
  const generated = await repairmonHere(ROOT, ['new', 'pristine', '--yes', '--skip-install', '--github-actions']);
  expect(generated.code, generated.stderr).toBe(0);
  pristine = join(work, 'pristine');
}, 60_000);

function copyOfPristine(name: string): string {
  cpSync(pristine, join(work, name), { recursive: true });
  return join(work, name);
}
afterAll(() => {
  process.chdir(ROOT);
  if (work) rmSync(work, { recursive: true, force: true });
});

/** What an integrator does after generating: edits their files and package.json. */
function editAsIntegrator(project: string): void {
  for (const file of OWNED)
    writeFileSync(join(project, file), `${readFileSync(join(project, file), 'utf8')}\n// edited by the integrator: ${file}\n`);
  const pkg = readJson(join(project, 'package.json')) as Pkg;
  pkg.dependencies['left-pad'] = '^1.3.0';
  pkg.dependencies['undici'] = '^7.0.0';
  pkg.devDependencies['typescript'] = '~9.0.0';
  pkg.scripts['lint'] = 'eslint .';
  pkg.scripts['test'] = 'vitest run --reporter dot';
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
}

// Each test upgrades its own copy, so they run side by side (most of the time is child processes).
describe.concurrent(`upgrade ${N} -> ${NEXT_VERSION}`, { timeout: 120_000 }, () => {
  it('keeps every edit, replaces every toolkit file, refuses an edited one until --force, which keeps .orig', async () => {
    const project = copyOfPristine('proj');
    const before = toolkitRecord(project);
    expect(before.version).toBe(N);
    editAsIntegrator(project);
    const edited = snapshot(project);
    writeFileSync(join(project, EDITED_TOOLKIT), `${readFileSync(join(project, EDITED_TOOLKIT), 'utf8')}// patched locally\n`);
    const patched = snapshot(project);

    const refused = await repairmonHere(next, ['upgrade', 'proj', '--skip-install']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${EDITED_TOOLKIT}  (edited: differs from the recorded hash)`);
    expect(refused.stderr).toContain('--force');
    expect(snapshot(project)).toEqual(patched);

    const upgraded = await repairmon(next, ['upgrade', 'proj', '--force', '--skip-install']);
    expect(upgraded.code, upgraded.stdout + upgraded.stderr).toBe(0);
    expect(out(upgraded)).toContain(`Toolkit ${N} -> ${NEXT_VERSION} (toolkit code in src/repair-service/)`);
    expect(out(upgraded)).toContain(`updated    ${EDITED_TOOLKIT} (your edited version kept as ${EDITED_TOOLKIT}.orig)`);
    expect(out(upgraded)).toContain('added      src/repair-service/client/added-in-next.ts');
    expect(out(upgraded)).toContain('removed    src/repair-service/contract/README.md');
    expect(out(upgraded)).toContain(`  ${EDITED_TOOLKIT}.orig  (compare: diff ${EDITED_TOOLKIT}.orig ${EDITED_TOOLKIT})`);
    const after = snapshot(project);

    for (const file of OWNED) expect(after.get(file), file).toBe(edited.get(file));
    const pkg = readJson(join(project, 'package.json')) as Pkg;
    expect(pkg.dependencies).toMatchObject({ 'left-pad': '^1.3.0', undici: '^7.99.0' });
    expect(pkg.devDependencies['typescript']).toBe('~9.0.0');
    expect(pkg.scripts).toMatchObject({ lint: 'eslint .', test: 'vitest run --reporter dot', 'check:ci': 'npm run check' });
    expect(out(upgraded)).toContain('package.json changed and --skip-install was given: run npm install.');
    expect(out(upgraded)).not.toMatch(/package\.json were detected|package manager/);
    expect(out(upgraded)).toMatch(
      /updated {4}package\.json: raised undici \^7\.0\.0 -> \^7\.99\.0; kept your typescript ~9\.0\.0 \(newer than our [^)]+\); added script "check:ci"/,
    );

    // Only the toolkit files whose code changed are rewritten; no header names a version.
    const changed = ['src/repair-service/contract/errors.ts', EDITED_TOOLKIT, 'openapi.yaml'];
    for (const path of Object.keys(before.files)) {
      if (path.endsWith('contract/README.md')) expect(after.has(path), path).toBe(false);
      else if (changed.includes(path)) expect(after.get(path), path).not.toBe(patched.get(path));
      else expect(after.get(path), path).toBe(edited.get(path));
    }
    expect(after.get(`${EDITED_TOOLKIT}.orig`)).toBe(patched.get(EDITED_TOOLKIT));
    expect(after.get('src/repair-service/contract/errors.ts')).toContain('export const NEXT_CODE = true;');
    expect(after.get('openapi.yaml')).toContain(`title: Repair-Service Integration API (${NEXT_VERSION})`);
    expect(out(upgraded)).toContain('updated    openapi.yaml');
    expect(after.get('src/repair-service/client/index.ts')?.split('\n')[0]).toBe(
      '// generated: do not edit, `repairmon upgrade` replaces it',
    );

    const record = toolkitRecord(project);
    expect(record.version).toBe(NEXT_VERSION);
    expect(Object.keys(record.files)).toContain('src/repair-service/client/added-in-next.ts');
    for (const [path, hash] of Object.entries(record.files)) expect(contentHash(readFileSync(join(project, path))), path).toBe(hash);

    const again = await repairmonHere(next, ['upgrade', 'proj', '--bail', '--skip-install']);
    expect(again.code, again.stderr).toBe(0);
    expect(out(again)).toMatch(/0 added, 0 updated, 0 removed, \d+ unchanged/);
    upgradedInFull.push(project);
  });

  it('an edited openapi.yaml is kept as an edited toolkit file: refused by name, --force replaces it and keeps the edit as .orig', async () => {
    const project = copyOfPristine('openapi');
    const edited = `${readFileSync(join(project, 'openapi.yaml'), 'utf8')}x-ours: true\n`;
    writeFileSync(join(project, 'openapi.yaml'), edited);
    const before = snapshot(project);
    const refused = await repairmonHere(next, ['upgrade', 'openapi', '--skip-install']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('openapi.yaml  (edited: differs from the recorded hash)');
    expect(snapshot(project)).toEqual(before);
    const forced = await repairmonHere(next, ['upgrade', 'openapi', '--force', '--skip-install']);
    expect(forced.code, out(forced)).toBe(0);
    expect(readFileSync(join(project, 'openapi.yaml.orig'), 'utf8')).toBe(edited);
    expect(readFileSync(join(project, 'openapi.yaml'), 'utf8')).toContain(`title: Repair-Service Integration API (${NEXT_VERSION})`);
    expect(toolkitRecord(project).files['openapi.yaml']).toBe(contentHash(readFileSync(join(project, 'openapi.yaml'))));
  });

  it('a version-only release changes no file but .yo-rc.json, and says so: nothing updated, no file of yours "kept"', async () => {
    const project = copyOfPristine('patch');
    const before = snapshot(project);
    const upgraded = await repairmonHere(patch, ['upgrade', 'patch', '--skip-install']);
    expect(upgraded.code, out(upgraded)).toBe(0);
    expect(out(upgraded)).toMatch(
      new RegExp(
        `Toolkit ${N.replace(/\./g, '\\.')} -> ${PATCH_VERSION} \\(toolkit code in src/repair-service/\\):\\n  0 added, 0 updated, 0 removed, \\d+ unchanged\\n`,
      ),
    );
    expect(out(upgraded)).not.toMatch(/kept|\.orig|npm install/);
    const after = snapshot(project);
    expect([...after.keys()].filter((path) => after.get(path) !== before.get(path))).toEqual(['.yo-rc.json']);
    expect(toolkitRecord(project).version).toBe(PATCH_VERSION);
  });

  it('a record listing files outside the toolkit folder (with their current hashes) is refused by name, --force too: nothing written, .env never .env.orig', async () => {
    const project = copyOfPristine('stray');
    writeFileSync(join(project, '.env'), 'REPAIR_API_TEST_KEY=rs_test_mine\n');
    const rc = readJson(join(project, '.yo-rc.json')) as { [key: string]: { toolkit: { files: Record<string, string> } } };
    const planted = ['package.json', 'src/index.ts', 'README.md', '.gitignore', '.env'];
    for (const path of planted) rc[CONFIG_KEY]!.toolkit.files[path] = contentHash(readFileSync(join(project, path)));
    rc[CONFIG_KEY]!.toolkit.files['.env'] = 'sha256-0000';
    writeFileSync(join(project, '.yo-rc.json'), JSON.stringify(rc, null, 2));
    const before = snapshot(project);
    for (const flags of [[], ['--force']]) {
      const refused = await repairmonHere(next, ['upgrade', 'stray', '--skip-install', ...flags]);
      expect(refused.code, flags.join(' ')).toBe(2);
      expect(refused.stderr).toContain('.yo-rc.json records these as toolkit files, but they are outside the toolkit folder');
      for (const path of planted) expect(refused.stderr).toContain(`\n  ${path}\n`);
      expect(snapshot(project)).toEqual(before);
    }
    expect(existsSync(join(project, '.env.orig'))).toBe(false);
  });

  it('a package.json that is an array, a string or null: exit 2 naming package.json, nothing written, also run from inside the project', async () => {
    const project = copyOfPristine('badpkg');
    for (const [text, holds] of [
      ['[]\n', 'an array'],
      ['"x"\n', 'a string'],
      ['null\n', 'null'],
    ] as const) {
      writeFileSync(join(project, 'package.json'), text);
      const before = snapshot(project);
      for (const [cwd, args] of [
        [work, ['upgrade', 'badpkg']],
        [project, ['upgrade']],
      ] as const) {
        const refused =
          cwd === work ? await repairmonHere(next, [...args, '--skip-install']) : await repairmon(next, [...args, '--skip-install'], cwd);
        expect(refused.code, `${text} in ${cwd}: ${refused.stderr}`).toBe(2);
        expect(refused.stderr).toBe(
          `repairmon upgrade: package.json is not a JSON object (it holds ${holds}); nothing was written. Fix it (or move it away), then run again.\n`,
        );
        expect(snapshot(project)).toEqual(before);
      }
    }
  });

  it('a project from before the record: the toolkit stays in src/, files identical to ours are replaced, others need --force', async () => {
    const project = copyOfPristine('old');
    // What such a project looked like: src/contract, src/client, src/checklist copied without a header, no record.
    for (const part of ['contract', 'client', 'checklist'])
      renameSync(join(project, 'src/repair-service', part), join(project, 'src', part));
    rmSync(join(project, 'src/repair-service'), { recursive: true });
    for (const [path, text] of snapshot(project)) {
      const full = join(project, path);
      if (/^src\/(contract|client|checklist)\//.test(path)) writeFileSync(full, text.slice(text.indexOf('\n') + 1));
      else if (path.endsWith('.ts')) writeFileSync(full, text.replaceAll('/repair-service/', '/'));
    }
    const yoRc = readJson(join(project, '.yo-rc.json')) as { [key: string]: { toolkit?: unknown } };
    delete yoRc[CONFIG_KEY]!.toolkit;
    writeFileSync(join(project, '.yo-rc.json'), JSON.stringify(yoRc, null, 2));
    rmSync(join(project, 'src/check.ts'));
    rmSync(join(project, 'openapi.yaml'));

    const refused = await repairmonHere(next, ['upgrade', 'old', '--skip-install']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('src/contract/errors.ts  (no recorded hash');
    expect(refused.stderr).not.toContain('src/client/');

    const forced = await repairmonHere(next, ['upgrade', 'old', '--force', '--skip-install']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(out(forced)).toContain('(toolkit code in src/)');
    expect(out(forced)).toContain('added      openapi.yaml');
    expect(existsSync(join(project, 'src/contract/errors.ts.orig'))).toBe(true);
    expect(existsSync(join(project, 'src/repair-service'))).toBe(false);
    expect(toolkitRecord(project)).toMatchObject({ version: NEXT_VERSION, dir: 'src' });
    // A file of theirs that was missing comes back importing the toolkit where this project keeps it.
    expect(readFileSync(join(project, 'src/check.ts'), 'utf8')).toContain("from './checklist/index.js'");
    upgradedInFull.push(project);
  });
});

describe('after the upgrades above', { timeout: 120_000 }, () => {
  it('each project upgraded in full compiles, strict (one tsc over all of them)', async () => {
    expect(upgradedInFull.toSorted()).toEqual([join(work, 'old'), join(work, 'proj')]);
    await typechecks(...upgradedInFull);
  });
});
