/**
 * What a new integrator does, end to end, as a non-root user (`repairdev` under root, see
 * as-user.ts), with nothing but the README: installs the toolkit its way (npm pack of this
 * checkout, which the user does not own, then a global install into a prefix they own),
 * generates with real `yo` (which installs and writes the lockfile), re-runs it without a
 * terminal over their edits, writes a program of their own that pages through a
 * `--page-size` sandbox with the client's `paginate`, typing the repairs with a parse hook (a
 * type guard), rehearses the production switch
 * against `repairmon sandbox --tls` with its CA file, and runs the generated CI steps.
 * Every npm install prefers the warm cache (--prefer-offline). Keys travel in variables only.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_FLAGS, RUN_FLAGS } from '../../generators/app/flags.js';
import { toolAvailable } from '../helpers/tools.js';
import { opensslPresent } from '../helpers/tls.js';
import { type Runner, giveToUser, pickRunner, runAs, spawnAs } from './as-user.js';
import { ROOT, childEnv } from '../helpers/rig.js';
import { planWorkflow } from './workflow.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const TARBALL = `generator-repair-service-${VERSION}.tgz`;
/** The README's install steps, verbatim (the checkout's path differs). */
const README_STEPS = [
  'npm config set prefix ~/.npm-global',
  'npm pack --ignore-scripts /path/to/generator-repair-service',
  `npm install -g ./${TARBALL} yo`,
];

const runner = pickRunner();
if (runner.kind === 'skip') toolAvailable(false, 'the integrator end-to-end test (real yo as a non-root user)', runner.why);
const ready = runner.kind !== 'skip' && opensslPresent('the integrator end-to-end test (repairmon sandbox --tls)');

let base: string;
let home: string;
let work: string;
let project: string;
let env: NodeJS.ProcessEnv;
const figures: string[] = [];

interface UserSandbox {
  readonly baseUrl: string;
  readonly caFile?: string;
  key(alias: string): string;
  readonly child: ChildProcess;
}
const sandboxes: UserSandbox[] = [];
let paged: UserSandbox;
let tls: UserSandbox;

/** The user's own npm cache (their real home's), seeded from ours the first time so installs stay offline. */
function userCache(r: Runner): string {
  if (r.kind !== 'runuser') return join(homedir(), '.npm');
  const cache = join(r.home, '.npm');
  if (!existsSync(join(cache, '_cacache'))) {
    const ours = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8', env: childEnv() }).trim();
    mkdirSync(cache, { recursive: true });
    // cp, not fs.cpSync: some 5 000 files, 400 MB, 1.6 s instead of 12 s (a fresh CI's first run).
    if (existsSync(join(ours, '_cacache'))) execFileSync('cp', ['-R', join(ours, '_cacache'), join(cache, '_cacache')]);
    execFileSync('chown', ['-R', `${r.uid}:${r.gid}`, cache]);
  }
  return cache;
}

function as(file: string, args: readonly string[], options: { cwd?: string; extra?: Record<string, string>; timeoutMs?: number } = {}) {
  return runAs(runner, file, args, {
    cwd: options.cwd ?? project,
    env: { ...env, ...options.extra },
    timeoutMs: options.timeoutMs ?? 180_000,
  });
}

/** A clean run prints no warning and no line starting with `Error` (npm's notices, yo's deprecations, yeoman's package-manager guess). */
function noise(output: string): string[] {
  return output.split('\n').filter((line) => /^\s*(?:npm )?warn|^\s*Error|deprecated|notice/i.test(line));
}

async function timed<T extends { ms: number }>(label: string, run: Promise<T>): Promise<T> {
  const result = await run;
  figures.push(`${label} ${(result.ms / 1000).toFixed(1)} s`);
  return result;
}

/** `repairmon sandbox --json ...` from the user's global install; resolves with its JSON line. */
function startUserSandbox(args: readonly string[]): Promise<UserSandbox> {
  const child = spawnAs(runner, 'repairmon', ['sandbox', '--port', '0', '--json', '--log-level', 'warn', ...args], { cwd: home, env });
  return new Promise((resolvePromise, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (!out.includes('\n') || line === undefined) return;
      const parsed = JSON.parse(line) as { baseUrl: string; caFile?: string; keys: { alias: string; key: string }[] };
      const sandbox: UserSandbox = {
        baseUrl: parsed.baseUrl,
        ...(parsed.caFile ? { caFile: parsed.caFile } : {}),
        key: (alias) => parsed.keys.find((k) => k.alias === alias)?.key ?? '',
        child,
      };
      sandboxes.push(sandbox);
      resolvePromise(sandbox);
    });
    child.on('exit', (code) => reject(new Error(`repairmon sandbox exited ${code}: ${err}`)));
  });
}

beforeAll(() => {
  if (!ready) return;
  base = mkdtempSync(join(tmpdir(), 'integrator-e2e-'));
  home = join(base, 'home');
  work = join(base, 'work');
  mkdirSync(home);
  mkdirSync(work);
  project = join(work, 'shop');
  giveToUser(runner, base);
  env = childEnv({
    HOME: home,
    PATH: `${join(home, '.npm-global', 'bin')}:${process.env['PATH'] ?? ''}`,
    npm_config_cache: userCache(runner),
    NPM_CONFIG_PREFER_OFFLINE: 'true',
    NPM_CONFIG_AUDIT: 'false',
    NPM_CONFIG_FUND: 'false',
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
  });
}, 120_000);

afterAll(async () => {
  const tk = performance.now();
  await Promise.all(
    sandboxes.map(
      (s) =>
        new Promise<void>((done) => {
          if (s.child.exitCode !== null) return done();
          s.child.once('exit', () => done());
          s.child.kill('SIGTERM');
        }),
    ),
  );
  figures.push(`sandboxes closed ${((performance.now() - tk) / 1000).toFixed(1)} s`);
  // Two installs' worth of node_modules (some 25 000 files) take up to a minute to delete on a
  // loaded machine: a detached rm does it without holding the suite up.
  if (base) spawn('rm', ['-rf', base], { detached: true, stdio: 'ignore' }).unref();
  if (figures.length > 0) console.log(`integrator e2e: ${figures.join('; ')}`);
});

/**
 * The integrator's own code: every repair, page by page over `Link: rel="next"` with the
 * opt-in `paginate` (`--pagination`), each item checked and typed by the parse hook (a type guard).
 */
const REPORT = `import { loadConfig } from './config.js';
import { createClient } from './repair-service/client/index.js';
import { paginate } from './repair-service/client/paginate.js';

interface Repair { readonly id: string; readonly state: string; readonly costPln: number }

function isRepair(value: unknown): value is Repair {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r['id'] === 'string' && typeof r['state'] === 'string' && typeof r['costPln'] === 'number';
}

const config = loadConfig();
const client = createClient({
  baseUrl: config.baseUrl,
  apiKey: config.apiKey,
  authScheme: config.authScheme,
  tenant: config.tenant,
  ...(config.ca === undefined ? {} : { ca: config.ca }),
});
const repairs: Repair[] = [];
let pages = 0;
try {
  for await (const page of paginate(client, 'repairs', { parse: isRepair }).pages()) {
    const items: readonly Repair[] = page.items;
    repairs.push(...items);
    pages = page.number;
  }
} finally {
  await client.close();
}
const cost = repairs.reduce((sum, r) => sum + r.costPln, 0);
console.log('repairs ' + repairs.length + ' on ' + pages + ' pages, ' + new Set(repairs.map((r) => r.id)).size + ' distinct, ' + cost + ' PLN');
`;

describe.skipIf(!ready)('a new integrator, README only, as a non-root user', { timeout: 300_000 }, () => {
  it("installs the toolkit the README's way: npm pack of a checkout they do not own, a global install into their own prefix", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const step of README_STEPS) expect(readme).toContain(step);
    expect(readme).not.toMatch(/npx repairmon|npm install -g yo generator-repair-service/);
    const prefix = await as('npm', ['config', 'set', 'prefix', join(home, '.npm-global')], { cwd: home });
    expect(prefix.code, prefix.stderr).toBe(0);
    const pack = await timed('npm pack', as('npm', ['pack', '--ignore-scripts', ROOT], { cwd: home }));
    expect(pack.code, pack.stderr).toBe(0);
    const listed = execFileSync('tar', ['-tzf', join(home, TARBALL)], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }).split('\n');
    for (const needed of [
      'bin/repairmon.js',
      'generators/app/index.js',
      'dist/generators/app/generator.js',
      'dist/cli/index.js',
      'templates/app/package.json.hbs',
      'templates/app/gitignore',
      'api/client/index.ts',
      'api/checklist/index.ts',
    ]) {
      expect(listed, needed).toContain(`package/${needed}`);
    }
    expect(listed.some((f) => f.startsWith('package/test/') || f.startsWith('package/node_modules/'))).toBe(false);
    const install = await timed(
      'global install',
      as('npm', ['install', '-g', '--prefer-offline', `./${TARBALL}`, 'yo'], { cwd: home, timeoutMs: 240_000 }),
    );
    expect(install.code, install.stderr).toBe(0);
    // npm lists the packages whose install scripts it did not run: yo's own postinstall (yodoctor), never ours (the tarball ships dist/).
    const scripts = /^npm warn install-scripts\b/;
    expect(noise(install.stdout + install.stderr).filter((line) => !scripts.test(line))).toEqual([]);
    const withScripts = (install.stdout + install.stderr)
      .split('\n')
      .flatMap((line) => /^npm warn install-scripts\s+(\S+)@\d\S* \(/.exec(line)?.[1] ?? []);
    expect(withScripts.filter((name) => name !== 'yo')).toEqual([]);
    for (const bin of ['yo', 'repairmon']) expect(existsSync(join(home, '.npm-global', 'bin', bin)), bin).toBe(true);
    const version = await as('repairmon', ['--version'], { cwd: home });
    expect({ code: version.code, stdout: version.stdout }).toEqual({ code: 0, stdout: `${VERSION}\n` });
  });

  it('yo repair-service --help prints the argument and every option, and writes nothing', async () => {
    const help = await as('yo', ['repair-service', '--help', '--no-insight'], { cwd: work });
    expect(help.code, help.stdout + help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: yo repair-service [dir] [flags]');
    expect(Math.max(...help.stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
    for (const flag of [...ANSWER_FLAGS.map((f) => f.flag), ...RUN_FLAGS.map((f) => f.flag)])
      expect(help.stdout, flag).toContain(`--${flag}`);
    expect(noise(help.stdout + help.stderr)).toEqual([]);
    expect(readdirSync(work)).toEqual([]);
  });

  it('yo repair-service generates without asking, installs, and writes package-lock.json; the README explains the sandbox', async () => {
    const yo = await timed(
      'yo + npm install',
      as('yo', ['repair-service', 'shop', '--yes', '--github-actions', '--pagination', '--no-insight'], { cwd: work, timeoutMs: 240_000 }),
    );
    expect(yo.code, yo.stdout + yo.stderr).toBe(0);
    expect(noise(yo.stdout + yo.stderr)).toEqual([]);
    expect(existsSync(join(project, 'package-lock.json'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'undici'))).toBe(true);
    const readme = readFileSync(join(project, 'README.md'), 'utf8');
    for (const text of [
      'http://127.0.0.1:4010/api/v1',
      'repairmon sandbox',
      'export REPAIR_API_TEST_KEY=',
      ...README_STEPS.slice(1, 2),
      'repairmon sandbox --tls',
      'REPAIR_API_CA_FILE',
      'repairmon upgrade',
    ]) {
      expect(readme, text).toContain(text);
    }
  });

  it("a re-run of yo without a terminal asks nothing and keeps the integrator's edits", async () => {
    for (const file of ['src/handlers.ts', 'src/index.ts'])
      writeFileSync(join(project, file), `${readFileSync(join(project, file), 'utf8')}// the integrator's line\n`);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    pkg.scripts['report'] = 'node dist/repairs-report.js';
    writeFileSync(join(project, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    writeFileSync(join(project, 'src', 'repairs-report.ts'), REPORT);
    giveToUser(runner, project);
    const again = await timed('yo re-run', as('yo', ['repair-service', '--no-insight']));
    const out = again.stdout + again.stderr;
    expect(again.code, out).toBe(0);
    expect(noise(out)).toEqual([]);
    expect(out).not.toContain('force closed');
    expect(out).toContain(`Toolkit ${VERSION} -> ${VERSION}`);
    for (const file of ['src/handlers.ts', 'src/index.ts'])
      expect(readFileSync(join(project, file), 'utf8')).toContain("// the integrator's line");
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))).toEqual(pkg);
  });

  it('the generated CI steps run locally: npm ci, typecheck, test, and the checklist only with the secret and a base URL (its build also builds their program)', async () => {
    [paged, tls] = await Promise.all([
      startUserSandbox(['--page-size', '2']),
      startUserSandbox(['--tls', '--tls-ca-out', join(home, 'sandbox-ca.pem')]),
    ]);
    const workflow = join(project, '.github', 'workflows', 'ci.yml');
    const labels = (secrets: Record<string, string>, vars: Record<string, string>) =>
      planWorkflow(workflow, { secrets, vars }).map((s) => s.label);
    const always = ['npm ci --no-audit --no-fund', 'npm run typecheck', 'npm test'];
    const secret = { REPAIR_API_TEST_KEY: paged.key('nowak-test') };
    expect(labels({}, {})).toEqual(always);
    expect(labels(secret, {})).toEqual([...always, 'Debugging checklist skipped']);
    const steps = planWorkflow(workflow, { secrets: secret, vars: { REPAIR_API_TEST_BASE_URL: paged.baseUrl } });
    expect(steps.map((s) => s.label)).toEqual([...always, 'Debugging checklist on the test key']);
    const skipped = planWorkflow(workflow, { secrets: secret, vars: {} }).at(-1)!;
    for (const step of [...steps, skipped]) {
      const run = await timed(step.label, as('bash', ['-eo', 'pipefail', '-c', step.run], { extra: { ...step.env, CI: 'true' } }));
      expect(run.code, `${step.label}\n${run.stdout}${run.stderr}`).toBe(0);
      if (step.label.startsWith('Debugging checklist on')) expect(run.stdout).toContain('All checks passed on test.');
      if (step.label.endsWith('skipped'))
        expect(run.stdout).toContain('::notice::REPAIR_API_TEST_KEY is set, but the repository variable REPAIR_API_TEST_BASE_URL is not');
    }
  });
  it('their program pages through a --page-size sandbox with the client\'s paginate (Link rel="next"), typing repairs with a parse hook', async () => {
    expect(existsSync(join(project, 'dist', 'repairs-report.js'))).toBe(true);
    const report = await as('npm', ['run', '--silent', 'report'], {
      extra: { REPAIR_API_TEST_BASE_URL: paged.baseUrl, REPAIR_API_TEST_KEY: paged.key('nowak-test') },
    });
    expect(report.code, report.stdout + report.stderr).toBe(0);
    expect(report.stdout).toMatch(/^repairs 7 on 4 pages, 7 distinct, \d+ PLN$/m);
  });

  it('switches to production against repairmon sandbox --tls with its CA file; the placeholder URL is refused first', async () => {
    expect(tls.baseUrl).toMatch(/^https:/);
    const prodKey = tls.key('nowak-prod');
    const production = { REPAIR_API_ENV: 'production', REPAIR_API_PRODUCTION_KEY: prodKey, REPAIR_API_TEST_KEY: tls.key('nowak-test') };
    const withUrl = { ...production, REPAIR_API_PRODUCTION_BASE_URL: tls.baseUrl };
    const trusted = { ...withUrl, REPAIR_API_CA_FILE: tls.caFile ?? '' };
    // What `npm run check` and `npm start` run once built (the CI step built dist/).
    const [placeholder, untrusted, check, start] = await Promise.all([
      as(process.execPath, ['dist/check.js'], { extra: production }),
      as(process.execPath, ['dist/check.js'], { extra: withUrl }),
      as(process.execPath, ['dist/check.js'], { extra: trusted }),
      as(process.execPath, ['dist/index.js'], { extra: trusted }),
    ]);
    expect(placeholder.code).toBe(2);
    expect(placeholder.stderr).toContain('REPAIR_API_PRODUCTION_BASE_URL is not set: the generator was not given a production URL');
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toMatch(/^host reachable.*FAIL/m);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain('All checks passed on production.');
    expect(start.code, start.stdout + start.stderr).toBe(0);
    expect(start.stdout).toContain(`on production (${tls.baseUrl})`);
    for (const out of [placeholder, untrusted, check, start]) expect(out.stdout + out.stderr).not.toContain(prodKey);
  });
});
