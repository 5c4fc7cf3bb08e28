/**
 * Usage errors of `repairmon probe` (exit 2). No server is needed. The key refusals run as a
 * child process (what ps and a terminal would show); the rest through the CLI's entry in this
 * process, the same parsing and messages without a node start each.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/fake-io.js';
import { ensureBuilt, runCli } from '../helpers/rig.js';

const SECRET = 'rs_test_NeverEchoThisValue0000q7Zk';
const BASE = ['--base-url', 'http://127.0.0.1:9/api/v1'];

beforeAll(() => ensureBuilt());

function expectNoSecret(run: { stdout: string; stderr: string }): void {
  expect(run.stdout).not.toContain(SECRET);
  expect(run.stderr).not.toContain(SECRET);
}

describe('repairmon probe usage', () => {
  it.each([[['--key', SECRET]], [[`--key=${SECRET}`]]])(
    'refuses %j with exit 2, saying how to pass the key, without echoing it',
    async (flag) => {
      const run = await runCli(['probe', ...BASE, ...flag]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--key is refused');
      expect(run.stderr).toMatch(/--key-env VAR.*--key-file PATH.*--key-stdin/);
      expect(run.stdout).toBe('');
      expectNoSecret(run);
    },
  );

  it('without a terminal and no key source, exits 2 naming the flags', async () => {
    const run = await runMain(['probe', ...BASE], {}, '');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no key given and no terminal.*--key-env VAR.*--key-file PATH.*--key-stdin/);
  });

  it.each([
    [[], '--base-url is required'],
    [[...BASE, '--tenant', 'zły/slug', '--key-stdin'], '--tenant "zły/slug" cannot contain "/"'],
    [[...BASE, '--auth', 'basic', '--key-stdin'], '--auth must be one of bearer, x-api-key'],
    [[...BASE, '--timeout', 'soon', '--key-stdin'], '--timeout must be a number'],
    [[...BASE, '--max-wait=-1', '--key-stdin'], '--max-wait must be between 0 and 300, got -1'],
    [[...BASE, '--max-wait', 'soon', '--key-stdin'], '--max-wait must be a number'],
    [[...BASE, '--key-env', 'A', '--key-stdin'], 'only one of --key-env, --key-file, --key-stdin'],
    [[...BASE, '--key-env', 'UNSET_VAR'], 'environment variable UNSET_VAR is not set'],
    [[...BASE, '--key-file', '/nonexistent/key'], 'cannot read "/nonexistent/key" (ENOENT)'],
    [['--base-url', `https://support:${SECRET}@api.example.com/api/v1`, '--key-stdin'], 'must not contain user:password@'],
    [[...BASE, '--platform-path', '../x', '--key-stdin'], '--platform-path "../x"'],
  ])('%j exits 2: %s', async (args, message) => {
    const run = await runMain(['probe', ...args], {}, '');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
    expectNoSecret(run);
  });

  it('an empty key on stdin is a usage error', async () => {
    const run = await runMain(['probe', ...BASE, '--key-stdin'], {}, '\n');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--key-stdin: the key is empty');
  });

  it('--help lists every flag', async () => {
    const run = await runMain(['probe', '--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--base-url',
      '--tenant',
      '--auth',
      '--key-env',
      '--key-file',
      '--key-stdin',
      '--json',
      '--timeout',
      '--max-wait',
      '--platform-path',
    ]) {
      expect(run.stdout).toContain(flag);
    }
    expect(run.stdout).toMatch(/--timeout S .*A run sends at most 10 requests/);
    expect(run.stdout.replace(/\s+/g, ' ')).toMatch(/--max-wait S .*Retry-After.*\(default: 10\)/);
  });
});
