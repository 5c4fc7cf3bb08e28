/**
 * "One line per tenant resource": on a copy of the checkout, add `'invoices'` to
 * `TENANT_RESOURCES` (the only edit), build, and check every surface a user meets: the sandbox
 * serves it with demo data, `repairmon openapi` has its path, `repairmon probe` a scope row,
 * `repairmon serve` a probe series, and `repairmon new` makes a project whose own `npm test`
 * passes with it. The copy reuses this checkout's node_modules (a symlink), so nothing is
 * installed; e2e.test.ts covers a real `npm install`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROOT,
  type SandboxKey,
  type SandboxProcess,
  childEnv,
  runProcess,
  spawnProcess,
  startSandboxProcess,
  waitFor,
} from '../../helpers/rig.js';

const LIST = /^export const TENANT_RESOURCES = \[([^\]]*)\] as const;$/m;
let copy: string;
let bin: string;
let sandbox: SandboxProcess | undefined;
const started = performance.now();

/** The git-tracked files of this checkout (with uncommitted edits), as a fresh clone would hold them. */
function copyCheckout(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(ROOT, file), join(to, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(to, 'node_modules'));
}

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), 'one-line-resource-'));
  copyCheckout(copy);
  const contract = join(copy, 'api/contract/api.ts');
  const before = readFileSync(contract, 'utf8');
  const after = before.replace(LIST, (line, names: string) => line.replace(names, `${names}, 'invoices'`));
  expect(after.split('\n').filter((line, i) => line !== before.split('\n')[i])).toEqual([
    "export const TENANT_RESOURCES = ['clients', 'bikes', 'repairs', 'logs', 'invoices'] as const;",
  ]);
  writeFileSync(contract, after);
  const build = await runProcess(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: copy,
    timeoutMs: 400_000,
  });
  expect(build.code, build.stdout).toBe(0);
  bin = join(copy, 'bin/repairmon.js');
  sandbox = await startSandboxProcess(['--monitor-out', join(copy, 'monitor-out')], { bin, cwd: copy });
}, 420_000);

afterAll(async () => {
  await sandbox?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
  console.log(`one-line-resource: copy, build and every surface in ${Math.round((performance.now() - started) / 1000)} s`);
});

const cli = (args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) =>
  runProcess(process.execPath, [bin, ...args], { cwd: options.cwd ?? copy, env: options.env ?? {}, timeoutMs: 120_000 });

describe("adding 'invoices' to TENANT_RESOURCES is the only edit", { timeout: 240_000 }, () => {
  it('the sandbox serves /tenants/x/invoices with demo data, to a key whose scope now includes it', async () => {
    const key = sandbox!.key('nowak-test') as SandboxKey & { scopes: string[] };
    expect(key.scopes).toContain('invoices');
    const res = await fetch(`${sandbox!.baseUrl}/tenants/rowery-nowak/invoices`, { headers: { authorization: `Bearer ${key.key}` } });
    const body = (await res.json()) as { ok: boolean; data: unknown[] };
    expect(res.status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.data.length).toBeGreaterThan(0);
  });

  it('repairmon openapi has the path', async () => {
    const run = await cli(['openapi']);
    expect(run.code, run.stderr).toBe(0);
    expect(Object.keys((JSON.parse(run.stdout) as { paths: object }).paths)).toContain('/tenants/{tenant}/invoices');
  });

  it('repairmon probe prints a scope row for invoices', async () => {
    const env = { PROBE_KEY: sandbox!.key('nowak-test').key };
    const run = await cli(['probe', '--base-url', sandbox!.baseUrl, '--tenant', 'rowery-nowak', '--key-env', 'PROBE_KEY'], { env });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^PASS\s+scope:invoices\s+200\s/m);
  });

  it('repairmon serve exposes a probe series with endpoint="invoices"', async () => {
    const config = join(copy, 'monitor-out', 'monitor.yaml');
    const serve = spawnProcess(process.execPath, [bin, 'serve', '--config', config, '--listen', '127.0.0.1:0'], { cwd: copy });
    try {
      const metrics = await waitFor(() => /metrics (http:\S+)/.exec(serve.stdout())?.[1], { what: () => serve.stderr() });
      const series = await waitFor(
        async () => (await (await fetch(metrics)).text()).match(/^repairmon_probe_success\{[^}]*endpoint="invoices"[^}]*\} 1$/gm),
        { what: 'a successful invoices probe', timeoutMs: 60_000, everyMs: 500 },
      );
      expect(series.join('\n')).toContain('check="read"');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });

  it('repairmon new makes a project that vendors the resource, and its own npm test passes', async () => {
    const work = join(copy, 'projects');
    mkdirSync(work);
    const made = await cli(['new', 'shop', '--yes', '--skip-install', '--no-interactive', '--tenant', 'rowery-nowak'], { cwd: work });
    expect(made.code, made.stderr).toBe(0);
    const project = join(work, 'shop');
    expect(readFileSync(join(project, 'src/repair-service/contract/api.ts'), 'utf8')).toContain("'invoices'");
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
    const test = await runProcess('npm', ['test'], { cwd: project, env: childEnv({ CI: '1' }), timeoutMs: 180_000 });
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/Tests\s+\d+ passed/);
  });
});
