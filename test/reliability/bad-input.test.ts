/**
 * Bad input, gathered: every config error, generator refusal and CLI misuse has a fixture and
 * an exact message, and nothing is half-done. Fixtures the owners assert exactly (every bad
 * monitor config is in test/monitor/fixtures with its issues in config/load.test.ts;
 * test/sandbox/fixtures/data, test/cli, test/probe, test/generator) are reused, not repeated;
 * this file adds the misuses that had none, the CLI surface of every config fixture, and the
 * process-level proofs: a refused `serve` binds no port, a refused `new` leaves its directory
 * as it was.
 */
import { connect } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../monitor/config/load.js';
import { formatIssues } from '../../lib/index.js';
import { startSandbox } from '../../sandbox/index.js';
import { runMain } from '../helpers/fake-io.js';
import { CLI_MISUSE, GENERATOR_REFUSALS, type GeneratorRefusalCase } from './fixtures/misuse.js';
import { serveChild } from './helpers.js';
import { childEnv, closedPort, spawnCli } from '../helpers/rig.js';
import { TENANT_RESOURCES } from '../../api/contract/index.js';

const MONITOR = new URL('../monitor/fixtures/', import.meta.url).pathname;
const ENV = { NOWAK_KEY: 'rs_test_abcdefghijklmnop1234', SPACED_KEY: 'rs_test_abc def' };
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('monitor config errors', () => {
  const fixtures = readdirSync(MONITOR).filter((f) => f.endsWith('.yaml'));
  it.each(fixtures)('monitor fixture %s: check-config exits 2 listing exactly the issues load.test.ts asserts', async (file) => {
    const path = join(MONITOR, file);
    const loaded = loadConfigFile(path, ENV);
    if (loaded.ok) throw new Error(`${file} is expected to be invalid`);
    expect(await runMain(['check-config', '--config', path], ENV)).toEqual({
      code: 2,
      stdout: '',
      stderr: `${path}: ${loaded.issues.length} problem(s):\n${formatIssues(loaded.issues)}\n`,
    });
  });

  it('serve with a bad config exits 2 before binding its port', async () => {
    const port = await closedPort();
    const path = join(MONITOR, 'duplicate-target-name.yaml');
    const result = await runMain(['serve', '--config', path, '--listen', `127.0.0.1:${port}`], ENV);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const refused = await new Promise<string>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () => done('connected'));
      socket.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});

/** Sandbox --data fixtures (test/sandbox asserts the start of each message): the whole CLI text. */
const SANDBOX_DATA = new URL('../sandbox/fixtures/data/', import.meta.url).pathname;
const SCOPE_OPTIONS = [...TENANT_RESOURCES, 'platform'].map((s) => `"${s}"`).join('|');
const DATA_CASES: Record<string, string[]> = {
  'bad-environment.yaml': ['keys[0].environment: Invalid option: expected one of "test"|"production"'],
  'bad-scope.yaml': [`keys[0].scopes[1]: Invalid option: expected one of ${SCOPE_OPTIONS}`],
  'bad-slug.json': ['tenants[1].slug: tenant slug "Zły_Slug" must be lowercase letters, digits and single hyphens (e.g. "rowery-nowak")'],
  'duplicate-alias.yaml': ['keys[1].alias: duplicate key alias "k"'],
  'many-problems.yaml': [
    'tenants[0].colour: unknown key',
    'keys[0].environment: Invalid option: expected one of "test"|"production"',
    'keys[1].alias: cannot contain control characters',
    `keys[1].scopes[0]: Invalid option: expected one of ${SCOPE_OPTIONS}`,
  ],
  'not-yaml.yaml': [
    'line 2: Block collections are not allowed within flow collections at line 2, column 3',
    'line 2: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 11',
  ],
  'record-not-object.yaml': ['tenants[0].repairs[1]: Invalid input: expected record, received string'],
  'tenant-key-unknown-tenant.yaml': ['keys[1].tenant: a tenant key needs "tenant" naming one of: a-shop'],
  'unknown-key.yaml': ['keys[0].secret: unknown key'],
};

describe('sandbox --data errors through the CLI', () => {
  it('every invalid fixture has a case here', () => {
    expect(
      readdirSync(SANDBOX_DATA)
        .filter((f) => f !== 'valid.yaml')
        .sort(),
    ).toEqual(Object.keys(DATA_CASES).sort());
  });

  it.each(Object.entries(DATA_CASES))('%s: exit 2, every problem, nothing on stdout', async (file, lines) => {
    const path = join(SANDBOX_DATA, file);
    const result = await runMain(['sandbox', '--data', path, '--port', '0', '--log-level', 'silent']);
    const message = `${lines.length} problem(s):\n${lines.map((l) => `  ${l}`).join('\n')}`;
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `repairmon sandbox: --data: ${path}: ${message}\nRun 'repairmon sandbox --help' for usage.\n`,
    });
  });
});

describe('CLI misuse', () => {
  it.each(CLI_MISUSE.map((c) => [c.args.join(' '), c] as const))('repairmon %s', async (_label, c) => {
    expect(await runMain(c.args)).toEqual({ code: c.code, stdout: '', stderr: c.stderr });
  });
});

/** Colours off; nothing else is dropped: a refusal is the only thing said (no yeoman "An error occured while running …" line). */
function ownLines(stderr: string): string {
  return stderr.replace(/\u001b\[[0-9;]*m/g, '');
}

function prepare(c: GeneratorRefusalCase): string {
  const cwd = mkdtempSync(join(tmpdir(), 'repairmon-refusal-'));
  dirs.push(cwd);
  if (c.setup === 'non-empty-dir') {
    mkdirSync(join(cwd, 'full'));
    writeFileSync(join(cwd, 'full', 'notes.txt'), 'mine\n');
  }
  if (c.setup === 'file-in-the-way') writeFileSync(join(cwd, 'afile'), 'mine\n');
  return cwd;
}

function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/**
 * The first refusal of each kind (an answer, the directory, a file in the way) as a child
 * process, what a user's terminal shows; the others through the CLI's entry in this process
 * (in the case's directory), the same code path without loading yeoman in a new node each.
 */
const AS_CHILD = new Set(['bad project name', 'non-empty directory without --force', 'a file where the directory should go']);

async function runNew(args: readonly string[], cwd: string, asChild: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  if (asChild) {
    const child = spawnCli(['new', ...args], { env: childEnv(), cwd });
    const code = await child.exited;
    return { code, stdout: child.stdout(), stderr: child.stderr() };
  }
  const home = process.cwd();
  process.chdir(cwd);
  try {
    return await runMain(['new', ...args], {}, '');
  } finally {
    process.chdir(home);
  }
}

describe('generator refusals through `repairmon new`: exact message, exit 2, nothing written', () => {
  // One case a test, one run at a time: each child loads yeoman, and on two shared cores a
  // batch of them could outlast one test's timeout although every child is correct.
  it.each(GENERATOR_REFUSALS.map((c) => [c.label, c] as const))('%s', { timeout: 60_000 }, async (label, c) => {
    const cwd = prepare(c);
    const before = listing(cwd);
    const { code, stdout, stderr } = await runNew(c.args, cwd, AS_CHILD.has(label));
    expect({ code, stdout, stderr: ownLines(stderr), files: listing(cwd) }).toEqual({
      code: c.code,
      stdout: '',
      stderr: c.stderr.replace('{cwd}', cwd),
      files: before,
    });
  });
});

describe('a bad reload keeps the running config', { timeout: 60_000 }, () => {
  it('serve: SIGHUP with broken YAML, then POST /-/reload with a missing variable; probes go on with the old plan', async () => {
    const sandbox = await startSandbox();
    const dir = mkdtempSync(join(tmpdir(), 'repairmon-badreload-'));
    dirs.push(dir);
    const file = join(dir, 'monitor.yaml');
    const config = (secret: string) =>
      `targets:\n  - name: sandbox\n    baseUrl: ${sandbox.baseUrl}\n    schedule: "* * * * * *"\n    timeout: 500ms\n    canaries: false\n    keys:\n      - { alias: nowak-test, kind: tenant, tenant: rowery-nowak, secret: "\${${secret}}" }\n`;
    writeFileSync(file, config('NOWAK_KEY'));
    const {
      serve,
      url,
      metrics,
      clientsOk: okCount,
      until,
    } = await serveChild(file, childEnv({ NOWAK_KEY: sandbox.key('nowak-test').key }));
    try {
      await until(async () => (await okCount()) >= 1);
      const planBefore = await (await fetch(`${url}/probes.json`)).text();

      writeFileSync(file, 'targets:\n  - name: sandbox\n    keys: [\n');
      serve.child.kill('SIGHUP');
      await until(async () => serve.stderr().includes('config reload failed; keeping the running config'));
      expect(await metrics()).toMatch(/^repairmon_config_last_reload_successful 0$/m);
      const seen = await okCount();
      await until(async () => (await okCount()) > seen);

      writeFileSync(file, config('REPAIRMON_NOT_SET_ANYWHERE'));
      const refused = await fetch(`${url}/-/reload`, { method: 'POST' });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        ok: false,
        issues: [
          { path: 'targets[0].keys[0].secret', message: 'key "nowak-test": environment variable REPAIRMON_NOT_SET_ANYWHERE is not set' },
        ],
      });
      const after = await okCount();
      await until(async () => (await okCount()) > after);
      const ids = (text: string) => new Set((JSON.parse(text) as { recent: { id: string }[] }).recent.map((e) => e.id));
      expect(ids(await (await fetch(`${url}/probes.json`)).text())).toEqual(ids(planBefore));
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
      await sandbox.close();
    }
    expect(await serve.exited).toBe(0);
  });
});
