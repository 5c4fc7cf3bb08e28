/**
 * A project generated with a snake_case tenant (`repairmon new --tenant rowery_nowak`), installed
 * with real npm and built, then its own client (`npm start`'s program) and its own checklist
 * (`npm run check`) run against the sandbox in every dialect, started through the real CLI: a good
 * key passes, a revoked key and a missing scope are caught, whatever the dialect answers with.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, exec } from '../generator/exec.js';
import { ROOT } from '../diagnose/helpers.js';
import { PRESETS, type SandboxProcess, slugIn, startSandboxProcess, truth } from './helpers.js';

const TENANT = 'rowery_nowak';
let work: string;
let project: string;
const sandboxes = new Map<string, SandboxProcess>();

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'generators', 'app', 'generator.js'))) throw new Error('dist/ is missing: run "npm run build" first');
  work = mkdtempSync(join(tmpdir(), 'gen-dialects-'));
  project = join(work, 'snake-shop');
  const generated = await exec(process.execPath, [join(ROOT, 'bin', 'repairmon.js'), 'new', 'snake-shop', '--yes', '--skip-install', '--no-interactive', '--tenant', TENANT], { cwd: work, env: cleanEnv() });
  expect(generated.code, generated.stderr).toBe(0);
  const install = await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project, env: cleanEnv(), timeoutMs: 180_000 });
  expect(install.code, install.stderr).toBe(0);
  const build = await exec('npm', ['run', 'build'], { cwd: project, env: cleanEnv() });
  expect(build.code, build.stdout + build.stderr).toBe(0);
  await Promise.all(PRESETS.map(async (p) => sandboxes.set(p, await startSandboxProcess(p))));
}, 240_000);

afterAll(async () => {
  await Promise.all([...sandboxes.values()].map((s) => s.close()));
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The project's built programs (what `npm start` and `npm run check` run after their build step). */
function run(program: 'check' | 'index', preset: string, alias: string) {
  const sandbox = sandboxes.get(preset)!;
  const tenant = slugIn(truth(preset), 'rowery-nowak');
  const env = cleanEnv({ REPAIR_API_TEST_BASE_URL: sandbox.baseUrl, REPAIR_API_TEST_KEY: sandbox.key(alias).key, ...(tenant === TENANT ? {} : { REPAIR_API_TENANT: tenant }) });
  return exec(process.execPath, [join('dist', `${program}.js`)], { cwd: project, env });
}

const line = (stdout: string, label: string): string => stdout.split('\n').find((l) => l.startsWith(label)) ?? `(no "${label}" line)`;

describe('the generated project with a snake_case tenant', () => {
  it('keeps the slug as given: `npm run check` itself passes against a snake_case sandbox', async () => {
    const sandbox = sandboxes.get('snake-public')!;
    const check = await exec('npm', ['run', '--silent', 'check'], { cwd: project, env: cleanEnv({ REPAIR_API_TEST_BASE_URL: sandbox.baseUrl, REPAIR_API_TEST_KEY: sandbox.key('nowak-test').key }) });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain(`tenant ${TENANT}`);
    expect(check.stdout).toContain('All checks passed on test.');
  });
});

describe.each(PRESETS)('the generated client and checklist against the %s dialect', (preset) => {
  it('a good key: the checklist passes and the program lists all four resources', async () => {
    const check = await run('check', preset, 'nowak-test');
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const start = await run('index', preset, 'nowak-test');
    expect(start.code, start.stdout + start.stderr).toBe(0);
    for (const resource of ['clients', 'bikes', 'repairs', 'logs']) expect(start.stdout).toMatch(new RegExp(`^\\s+${resource}\\s+\\d+$`, 'm'));
  });

  it('a revoked key fails the key row; the program stops with the fix_key step', async () => {
    const check = await run('check', preset, 'nowak-revoked-test');
    expect(check.code).toBe(1);
    expect(line(check.stdout, 'key accepted')).toMatch(/\bFAIL\b/);
    const start = await run('index', preset, 'nowak-revoked-test');
    expect(start.code).toBe(1);
    expect(start.stderr).toContain('fix_key');
  });

  it('a key without the logs scope fails only that row', async () => {
    const check = await run('check', preset, 'nowak-nologs-test');
    expect(check.code).toBe(1);
    expect(line(check.stdout, 'scope covers logs')).toMatch(/\bFAIL\b/);
    for (const resource of ['clients', 'bikes', 'repairs']) expect(line(check.stdout, `scope covers ${resource}`)).toMatch(/\bPASS\b/);
    expect(line(check.stdout, 'tenant matches key')).toMatch(/\bPASS\b/);
  });
});
