/**
 * Real `yo repair-service`, as a non-root user (yo refuses root; as-user.ts picks the user). The
 * generator is linked the way a user would have it: a `node_modules/generator-repair-service`
 * symlink to this package in a directory the user owns, which yo's lookup finds.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolAvailable } from '../helpers/tools.js';
import { giveToUser, pickRunner, runAs } from './as-user.js';
import { ROOT, childEnv } from '../helpers/rig.js';

const YO = join(ROOT, 'node_modules', 'yo', 'lib', 'cli.js');

const runner = pickRunner();
if (runner.kind === 'skip') toolAvailable(false, 'the real "yo repair-service" non-root test', runner.why);

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A temp dir the user owns, with the generator linked into its node_modules. */
function linkedWorkspace(): { base: string; home: string } {
  const base = mkdtempSync(join(tmpdir(), 'yo-nonroot-'));
  dirs.push(base);
  const home = join(base, 'home');
  mkdirSync(home);
  mkdirSync(join(base, 'node_modules'));
  symlinkSync(ROOT, join(base, 'node_modules', 'generator-repair-service'));
  giveToUser(runner, base);
  return { base, home };
}

function runYo(cwd: string, home: string, args: readonly string[]) {
  return runAs(runner, process.execPath, [YO, 'repair-service', ...args, '--skip-install', '--no-insight', '--no-interactive'], {
    cwd,
    env: childEnv({ HOME: home }),
  });
}

describe.skipIf(runner.kind === 'skip')('yo repair-service as a non-root user', () => {
  it('generates a project through yo with the generator linked', { timeout: 60_000 }, async () => {
    const { base, home } = linkedWorkspace();
    const result = await runYo(base, home, ['gdansk-sync', '--yes', '--tenant', 'cykl-gdansk']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const stored = JSON.parse(readFileSync(join(base, 'gdansk-sync', '.yo-rc.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(stored['generator-repair-service']).toMatchObject({ name: 'gdansk-sync', tenant: 'cykl-gdansk' });
    expect(readFileSync(join(base, 'gdansk-sync', 'src', 'config.ts'), 'utf8')).toContain('tenant: "cykl-gdansk"');
    // --skip-install: nothing installed and nothing said about it but the next step.
    expect(existsSync(join(base, 'gdansk-sync', 'node_modules'))).toBe(false);
    expect(result.stdout + result.stderr).not.toMatch(/package\.json were detected|Skipping package manager install|package manager/);
    expect(result.stdout + result.stderr).toContain('  npm install           # also writes package-lock.json');
  });

  it('refuses bad answers through yo too, writing nothing', { timeout: 60_000 }, async () => {
    const { base, home } = linkedWorkspace();
    const result = await runYo(base, home, ['bad', '--yes', '--production-base-url', 'http://plain.example/api/v1']);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('--production-base-url must use https');
    expect(result.stdout + result.stderr).not.toContain('An error occured');
    expect(existsSync(join(base, 'bad'))).toBe(false);
  });
});
