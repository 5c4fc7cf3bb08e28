/**
 * Real `yo repair-service`, as a non-root user (yo refuses root; as-user.ts picks the user). The
 * generator is linked the way a user would have it: a `node_modules/generator-repair-service`
 * symlink to this package in a directory the user owns, which yo's lookup finds.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolAvailable } from '../helpers/tools.js';
import { command, giveToUser, pickRunner, runAs } from './as-user.js';
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

  it(
    'refuses an unknown flag and a bad value as repairmon new does: exit 2 naming both, nothing written',
    { timeout: 60_000 },
    async () => {
      const { base, home } = linkedWorkspace();
      const args = ['bad', '--bogus-flag', '--yes', '--production-base-url', 'http://plain.example/api/v1'];
      const result = await runYo(base, home, args);
      expect(result.code, result.stdout + result.stderr).toBe(2);
      expect(result.stdout + result.stderr).toContain("Unknown option '--bogus-flag'");
      expect(result.stdout + result.stderr).toContain('--production-base-url must use https');
      expect(result.stdout + result.stderr).not.toContain('An error occured');
      expect(existsSync(join(base, 'bad'))).toBe(false);
    },
  );

  it('Ctrl+C in a prompt (a real terminal, through script): "cancelled, nothing written" once, exit 130', { timeout: 90_000 }, async () => {
    const { base, home } = linkedWorkspace();
    const line = [process.execPath, YO, 'repair-service', 'ctrlc', '--skip-install', '--no-insight', '--interactive'].join(' ');
    // script(1) gives yo a terminal; what the test writes to script's stdin is typed into it.
    const [cmd, argv] = command(runner, 'script', ['-qfec', line, '/dev/null']);
    const child = spawn(cmd, argv, { cwd: base, env: childEnv({ HOME: home, TERM: 'xterm' }), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const asked = new Promise<void>((done) => {
      const read = (chunk: Buffer): void => {
        out += chunk.toString('utf8');
        if (out.includes('npm package name')) done();
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
    });
    const code = new Promise<number | null>((done) => child.on('close', done));
    await Promise.race([asked, code]);
    child.stdin.write('\u0003');
    expect(await code, out).toBe(130);
    const text = stripVTControlCharacters(out);
    expect(text.match(/cancelled, nothing written/g), text).toHaveLength(1);
    expect(text).not.toMatch(/An error occured|force closed|SIGINT/);
    expect(existsSync(join(base, 'ctrlc'))).toBe(false);
  });
});
