/**
 * Real `yo repair-service`, as a non-root user (yo refuses root). The generator is linked the
 * way a user would have it: a `node_modules/generator-repair-service` symlink to this package
 * in a directory the user owns, which yo's lookup finds. As root, the run goes through
 * `runuser -u repairdev` (CI creates the user: `useradd --create-home repairdev`); with no
 * such user the test is skipped with a loud message. YO_TEST_USER picks another user.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, exec } from './exec.js';
import { toolAvailable } from '../helpers/tools.js';

const ROOT = resolve(import.meta.dirname, '../..');
const YO = join(ROOT, 'node_modules', 'yo', 'lib', 'cli.js');
const USER = process.env['YO_TEST_USER'] ?? 'repairdev';

type Runner = { readonly kind: 'self' } | { readonly kind: 'runuser'; readonly uid: number; readonly gid: number } | { readonly kind: 'skip'; readonly why: string };

function pickRunner(): Runner {
  if (process.getuid?.() !== 0) return { kind: 'self' };
  try {
    const uid = Number(execFileSync('id', ['-u', USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', USER], { encoding: 'utf8' }).trim());
    return { kind: 'runuser', uid, gid };
  } catch {
    return { kind: 'skip', why: `running as root and user "${USER}" does not exist (create it: useradd --create-home ${USER})` };
  }
}

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
  if (runner.kind === 'runuser') for (const dir of [base, home, join(base, 'node_modules')]) chownSync(dir, runner.uid, runner.gid);
  return { base, home };
}

function runYo(cwd: string, home: string, args: readonly string[]) {
  const yoArgs = [YO, 'repair-service', ...args, '--skip-install', '--no-insight', '--no-interactive'];
  const env = cleanEnv({ HOME: home });
  if (runner.kind === 'runuser') return exec('runuser', ['-u', USER, '--', 'env', `HOME=${home}`, process.execPath, ...yoArgs], { cwd, env });
  return exec(process.execPath, yoArgs, { cwd, env });
}

describe.skipIf(runner.kind === 'skip')('yo repair-service as a non-root user', () => {
  it('generates a project through yo with the generator linked', { timeout: 60_000 }, async () => {
    const { base, home } = linkedWorkspace();
    const result = await runYo(base, home, ['gdansk-sync', '--yes', '--tenant', 'cykl-gdansk']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const stored = JSON.parse(readFileSync(join(base, 'gdansk-sync', '.yo-rc.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(stored['generator-repair-service']).toMatchObject({ name: 'gdansk-sync', tenant: 'cykl-gdansk' });
    expect(readFileSync(join(base, 'gdansk-sync', 'src', 'config.ts'), 'utf8')).toContain('tenant: "cykl-gdansk"');
  });

  it('refuses bad answers through yo too, writing nothing', { timeout: 60_000 }, async () => {
    const { base, home } = linkedWorkspace();
    const result = await runYo(base, home, ['bad', '--yes', '--production-base-url', 'http://plain.example/api/v1']);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('--production-base-url must use https');
    expect(existsSync(join(base, 'bad'))).toBe(false);
  });
});
