/**
 * End to end: `repairmon new --tenant rowery_nowak` (a snake_case slug: the spec shows no slug
 * format) into a temp dir, real `npm install`, `tsc --noEmit`, the generated `npm test`, the
 * generated `npm run check` against a live sandbox with a demo tenant key (passes) and another
 * tenant's key (fails on the tenant-mismatch row), then the project's own client and checklist
 * against the sandbox in every dialect (test/dialects/). Keys go through environment variables
 * only. Needs `npm run build` first (npm test's pretest does it).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { ERROR_CODES, TENANT_RESOURCES } from '../../api/contract/index.js';
import { PRESETS, slugIn, truth } from '../helpers/dialects.js';
import { ROOT, childEnv, runCli, runProcess } from '../helpers/rig.js';

/** As generated; the reference sandbox spells the same shop `rowery-nowak` (set by REPAIR_API_TENANT). */
const TENANT = 'rowery_nowak';
const REFERENCE_TENANT = 'rowery-nowak';

let work: string;
let project: string;
let sandbox: RunningSandbox | undefined;
const figures: string[] = [];

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'generators', 'app', 'generator.js'))) throw new Error('dist/ is missing: run "npm run build" first');
  work = mkdtempSync(join(tmpdir(), 'gen-e2e-'));
  project = join(work, 'nowak-integration');
});

afterAll(async () => {
  await sandbox?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  if (figures.length > 0) console.log(`generator e2e figures: ${figures.join('; ')}`);
});

describe('generated project, end to end', { timeout: 240_000 }, () => {
  it('repairmon new scaffolds without asking', async () => {
    // --pagination: its src/index.ts counts every page (node-lines.test.ts runs the default project).
    const args = ['new', 'nowak-integration', '--yes', '--skip-install', '--no-interactive', '--tenant', TENANT, '--pagination'];
    const result = await runCli(args, { cwd: work });
    expect(result.stderr).not.toContain('An error occured');
    expect(result.code).toBe(0);
    figures.push(`scaffold (no install) ${Math.round(result.ms)} ms`);
    expect(existsSync(join(project, 'src', 'config.ts'))).toBe(true);
  });

  it('installs with real npm and type-checks clean', async () => {
    const install = await runProcess('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: project,
      env: childEnv(),
      timeoutMs: 180_000,
    });
    expect(install.code, install.stderr).toBe(0);
    figures.push(`npm install ${Math.round(install.ms)} ms`);
    const tsc = await runProcess(join(project, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', 'tsconfig.json'], {
      cwd: project,
      env: childEnv(),
    });
    expect(tsc.code, tsc.stdout).toBe(0);
  });

  it('passes its own tests', async () => {
    const test = await runProcess('npm', ['test'], { cwd: project, env: childEnv({ CI: '1' }) });
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/Tests\s+\d+ passed/);
    figures.push(`generated npm test ${Math.round(test.ms)} ms`);
  });

  it('npm run check passes on the tenant key and fails on another tenant key with the mismatch line', async () => {
    sandbox = await startSandbox();
    const own = sandbox.key('nowak-test');
    const other = sandbox.key('kowalski-test');
    expect(own.tenant).toBe(REFERENCE_TENANT);
    // The first run builds (precheck); the second runs the same script on that build.
    const check = (key: string, ...flags: string[]) =>
      runProcess('npm', ['run', '--silent', ...flags, 'check'], {
        cwd: project,
        env: childEnv({ REPAIR_API_TEST_BASE_URL: sandbox!.baseUrl, REPAIR_API_TEST_KEY: key, REPAIR_API_TENANT: REFERENCE_TENANT }),
      });

    const pass = await check(own.key);
    expect(pass.code, pass.stdout + pass.stderr).toBe(0);
    expect(pass.stdout).toContain('All checks passed on test.');
    expect(pass.stdout).not.toMatch(/\bFAIL\b/);

    const fail = await check(other.key, '--ignore-scripts');
    expect(fail.code).toBe(1);
    const tenantLine = fail.stdout.split('\n').find((line) => line.startsWith(`tenant matches key (${REFERENCE_TENANT})`));
    expect(tenantLine).toMatch(new RegExp(`FAIL\\s+HTTP 403 ${ERROR_CODES.tenantMismatch}`));
    for (const output of [pass.stdout, pass.stderr, fail.stdout, fail.stderr]) {
      expect(output).not.toContain(own.key);
      expect(output).not.toContain(other.key);
    }
    expect(readFileSync(join(project, '.yo-rc.json'), 'utf8')).not.toContain(own.key);
  });
});

describe('the generated client and checklist against every dialect', { timeout: 240_000 }, () => {
  const sandboxes = new Map<string, RunningSandbox>();
  beforeAll(async () => {
    // Built by `npm run check` above (its precheck step).
    expect(existsSync(join(project, 'dist', 'check.js'))).toBe(true);
    // In this process: the project's programs are the children under test, not the sandboxes.
    await Promise.all(PRESETS.map(async (p) => sandboxes.set(p, await startSandbox({ dialect: p, rateLimit: '1000/1m' }))));
  }, 120_000);
  afterAll(async () => Promise.all([...sandboxes.values()].map((s) => s.close())));

  /** The project's built programs: what `npm start` and `npm run check` run after their build step. */
  function run(program: 'check' | 'index', preset: string, alias: string) {
    const sandbox = sandboxes.get(preset)!;
    const tenant = slugIn(truth(preset), REFERENCE_TENANT);
    const env = childEnv({
      REPAIR_API_TEST_BASE_URL: sandbox.baseUrl,
      REPAIR_API_TEST_KEY: sandbox.key(alias).key,
      ...(tenant === TENANT ? {} : { REPAIR_API_TENANT: tenant }),
    });
    return runProcess(process.execPath, [join('dist', `${program}.js`)], { cwd: project, env });
  }
  const line = (stdout: string, label: string): string => stdout.split('\n').find((l) => l.startsWith(label)) ?? `(no "${label}" line)`;

  it('the snake_case tenant as generated: `npm run check` itself passes against a snake_case sandbox', async () => {
    const sandbox = sandboxes.get('snake-public')!;
    // --ignore-scripts: the script itself, without its precheck build (done above).
    const check = await runProcess('npm', ['run', '--silent', '--ignore-scripts', 'check'], {
      cwd: project,
      env: childEnv({ REPAIR_API_TEST_BASE_URL: sandbox.baseUrl, REPAIR_API_TEST_KEY: sandbox.key('nowak-test').key }),
    });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain(`tenant ${TENANT}`);
    expect(check.stdout).toContain('All checks passed on test.');
  });

  it.each(PRESETS)(
    '%s: a good key passes the checklist and the program lists all four resources; a revoked key stops it with one report saying to fix the key; a key without logs fails only that row',
    async (preset) => {
      const [check, start, revoked, nologs] = await Promise.all([
        run('check', preset, 'nowak-test'),
        run('index', preset, 'nowak-test'),
        run('index', preset, 'nowak-revoked-test'),
        run('check', preset, 'nowak-nologs-test'),
      ]);
      expect(check.code, check.stdout + check.stderr).toBe(0);
      expect(start.code, start.stdout + start.stderr).toBe(0);
      for (const resource of TENANT_RESOURCES) expect(start.stdout).toMatch(new RegExp(`^\\s+${resource}\\s+\\d+$`, 'm'));
      expect(revoked.code).toBe(1);
      // handleApiError reports it once: the call, the refusal and what to do (nextStep fix_key's action).
      expect(revoked.stderr.match(/failed: HTTP 40[13]/g)).toHaveLength(1);
      expect(revoked.stderr).toContain(': use a current key of this environment');
      expect(nologs.code).toBe(1);
      expect(line(nologs.stdout, 'scope covers logs')).toMatch(/\bFAIL\b/);
      for (const resource of TENANT_RESOURCES.filter((r) => r !== 'logs'))
        expect(line(nologs.stdout, `scope covers ${resource}`)).toMatch(/\bPASS\b/);
      expect(line(nologs.stdout, 'tenant matches key')).toMatch(/\bPASS\b/);
      // Step 5 repeats the call the failed row was decided on.
      expect(nologs.stdout).toMatch(/^ {2}curl .*\/logs'$/m);
    },
  );

  it('with --pagination, `npm start` counts every page: the same counts from a sandbox sending 2 items a page', async () => {
    const paged = await startSandbox({ pageSize: 2 });
    try {
      const counts = async (sandbox: RunningSandbox) => {
        const env = childEnv({
          REPAIR_API_TEST_BASE_URL: sandbox.baseUrl,
          REPAIR_API_TEST_KEY: sandbox.key('nowak-test').key,
          REPAIR_API_TENANT: REFERENCE_TENANT,
        });
        const start = await runProcess(process.execPath, [join('dist', 'index.js')], { cwd: project, env });
        expect(start.code, start.stdout + start.stderr).toBe(0);
        return TENANT_RESOURCES.map((r) => Number(/\s(\d+)$/.exec(line(start.stdout, `  ${r}`))?.[1]));
      };
      const [whole, byPages] = await Promise.all([counts(sandboxes.get('reference')!), counts(paged)]);
      expect(whole.every((n) => n > 2)).toBe(true);
      expect(byPages).toEqual(whole);
    } finally {
      await paged.close();
    }
  });

  it('a 429 on one resource: its scope row is undecided (SKIP), the check says it was rate limited, exit 1', async () => {
    const sandbox = sandboxes.get('reference')!;
    sandbox.setFaults('rate-limit-storm:7@/tenants/*/bikes');
    try {
      const check = await run('check', 'reference', 'nowak-test');
      expect(check.code, check.stdout).toBe(1);
      expect(line(check.stdout, 'scope covers bikes')).toMatch(
        /\bSKIP\b.*HTTP 429 rate_limited.*: not decided; run again later \(Retry-After: 7\)$/,
      );
      expect(line(check.stdout, 'scope covers clients')).toMatch(/\bPASS\b/);
      expect(check.stdout).toContain('Rate limited before every check was decided');
      expect(check.stdout).not.toContain('Some checks failed');
    } finally {
      sandbox.setFaults('');
    }
  });
});
