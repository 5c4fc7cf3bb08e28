/**
 * Usage errors of `repairmon discover` (exit 2, exact messages). No server is needed. The key
 * refusals run as a child process (what ps and a terminal would show); the rest through the
 * CLI's entry in this process, the same parsing and messages without a node start each.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/fake-io.js';
import { ensureBuilt, runCli } from '../helpers/rig.js';

const SECRET = 'rs_test_NeverEchoThisValue0000q7Zk';
const URL = 'http://127.0.0.1:9/api/v1';
const BASE = ['--base-url', URL];
const USAGE = "Run 'repairmon discover --help' for usage.\n";

beforeAll(() => ensureBuilt());

async function usageError(args: readonly string[], options: { input?: string; spawn?: boolean } = {}): Promise<string> {
  const argv = ['discover', ...args];
  const run = options.spawn ? await runCli(argv) : await runMain(argv, {}, options.input ?? '');
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).not.toContain(SECRET);
  expect(run.stderr.endsWith(USAGE)).toBe(true);
  return run.stderr.slice(0, -USAGE.length);
}

describe('repairmon discover usage', () => {
  it.each([[['--key', SECRET]], [[`--key=${SECRET}`]]])(
    'refuses %j with exit 2, saying how to pass the key, without echoing it',
    async (flag) => {
      expect(await usageError([...BASE, ...flag], { spawn: true })).toBe(
        'repairmon discover: --key is refused: a key on the command line shows in ps and shell history. Pass it with --key-env VAR (an environment variable), --key-file PATH or --key-stdin (e.g. `pass show key | repairmon discover --key-stdin ...`)\n',
      );
    },
  );

  it.each([
    [[], '--base-url is required (the API address ending in /api/v1)'],
    [['--base-url', 'api.example.com/api/v1'], '--base-url is not a URL (expected e.g. https://host/api/v1)'],
    [['--base-url', 'ftp://h/api/v1'], '--base-url must use http or https, not ftp:'],
    [['--base-url', 'http://127.0.0.1:9/api'], '--base-url must end in /api/v1 (the base address contains the version), got path "/api"'],
    [
      ['--base-url', `https://ops:${SECRET}@api.example.com/api/v1`],
      '--base-url must not carry credentials (user:password@): a key never goes in a URL',
    ],
    [['--base-url', `${URL}?key=${SECRET}`], '--base-url must not have a query or fragment'],
    [[...BASE, '--tenant', 'a/b'], '--tenant "a/b" cannot contain "/": it must be one path segment'],
    [[...BASE, '--tenant', '..'], '--tenant ".." cannot be "." or "..": a URL would resolve it away'],
    [[...BASE, '--auth', 'basic'], '--auth must be one of bearer, x-api-key, got "basic"'],
    [[...BASE, '--timeout', 'soon'], '--timeout must be a number, got "soon"'],
    [[...BASE, '--timeout', '0'], '--timeout must be between 0.1 and 300, got 0'],
    [[...BASE, '--emit', 'yaml'], '--emit must be one of monitor-config, got "yaml"'],
    [[...BASE, '--emit', 'monitor-config', '--json'], 'give only one of --json and --emit'],
    [[...BASE, '--key-env', 'A', '--key-stdin'], 'give only one of --key-env, --key-file, --key-stdin'],
    [[...BASE, '--key-env', 'UNSET_VAR'], '--key-env: environment variable UNSET_VAR is not set or empty'],
    [[...BASE, '--key-env', 'not a name'], '--key-env "not a name" is not an environment variable name'],
    [[...BASE, '--key-file', '/nonexistent/key'], '--key-file: cannot read "/nonexistent/key" (ENOENT)'],
    [[...BASE, '--platform-path', '../x'], '--platform-path "../x" cannot contain "." or ".." segments'],
    [[...BASE, '--bogus'], "Unknown option '--bogus'"],
  ])('%j exits 2: %s', async (args, message) => {
    expect(await usageError(args)).toBe(`repairmon discover: ${message}\n`);
  });

  it('an empty key on stdin is a usage error', async () => {
    expect(await usageError([...BASE, '--key-stdin'], { input: '\n' })).toBe('repairmon discover: --key-stdin: the key is empty\n');
  });

  it('--help lists every flag and the request budget', async () => {
    const run = await runMain(['discover', '--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--base-url',
      '--tenant',
      '--auth',
      '--key-env',
      '--key-file',
      '--key-stdin',
      '--json',
      '--emit',
      '--timeout',
      '--platform-path',
    ])
      expect(run.stdout).toContain(flag);
    expect(run.stdout).toContain('at most 11 GETs, one at a time, no retries');
  });

  it('is listed by repairmon --help', async () => {
    const run = await runMain(['--help']);
    expect(run.stdout).toMatch(/^ {2}discover\s+learn which reading of the spec a real API follows/m);
  });
});
