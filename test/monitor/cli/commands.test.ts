import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { waitFor } from '../tools/real-tools.js';

// These spawn the compiled CLI: run `npm run build` first (npm test does, via pretest).
const bin = new URL('../../../bin/repairmon.js', import.meta.url).pathname;
const fixtures = new URL('../fixtures/', import.meta.url).pathname;

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('check-config and serve exit codes', () => {
  test('check-config: 2 with every issue listed, 0 with a summary', async () => {
    const bad = await run(['check-config', '--config', join(fixtures, 'many-errors.yaml')]);
    expect(bad.code).toBe(2);
    // The schema errors do not hide the unset ${NOWAK_KEY} of the readable key.
    expect(bad.stderr).toContain('6 problem(s)');
    expect(bad.stderr).toContain('targets[0].keys[0].secret: key "nowak-test": environment variable NOWAK_KEY is not set');
    expect(bad.stderr).toContain('targets[0].extra: unknown key');
    const dir = mkdtempSync(join(tmpdir(), 'repairmon-cli-'));
    const file = join(dir, 'ok.yaml');
    writeFileSync(file, 'targets:\n  - name: t\n    baseUrl: http://127.0.0.1:9/api/v1\n    keys:\n      - { alias: a-test, kind: tenant, tenant: rowery-nowak, secret: "${A_KEY}" }\n');
    const good = await run(['check-config', '--config', file], { A_KEY: 'rs_test_secretsecretsecret9876' });
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('key a-test (tenant rowery-nowak; bearer; …9876)');
    expect(good.stdout).not.toContain('secretsecret');
  });

  test('serve: bad config exits 2, unknown flag exits 2, bad --shard exits 2', async () => {
    expect((await run(['serve', '--config', join(fixtures, 'unknown-key.yaml')], { NOWAK_KEY: 'rs_test_abcdefghijklmnop1234' })).code).toBe(2);
    expect((await run(['serve', '--config', 'x.yaml', '--bogus'])).code).toBe(2);
    const shard = await run(['serve', '--config', 'x.yaml', '--shard', '5/2']);
    expect(shard.code).toBe(2);
    expect(shard.stderr).toContain('--shard index i must be between 0 and 1 for N=2, got 5');
  });
});

describe('serve end to end', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => sandbox.close());

  test('serves metrics for the configured keys, reloads on SIGHUP, stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repairmon-serve-'));
    const file = join(dir, 'monitor.yaml');
    const write = (aliases: string[]): void =>
      writeFileSync(
        file,
        ['targets:', '  - name: sandbox', `    baseUrl: ${sandbox.baseUrl}`, '    timeout: 2s', '    keys:', ...aliases.map((a) => `      - { alias: ${a}, kind: tenant, tenant: ${sandbox.key(a).tenant}, secret: "\${KEY_${a.replace(/-/g, '_').toUpperCase()}}" }`)].join('\n'),
      );
    write(['nowak-test']);
    const env = { KEY_NOWAK_TEST: sandbox.key('nowak-test').key, KEY_KOWALSKI_TEST: sandbox.key('kowalski-test').key };
    const child = spawn(process.execPath, [bin, 'serve', '--config', file, '--listen', '127.0.0.1:0', '--log-level', 'info'], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const url = await waitFor('the serve banner', async () => /status (http:\/\/\S+)\//.exec(stdout)?.[1], 15_000);
      await waitFor('first round', async () => ((await (await fetch(`${url}/metrics`)).text()).includes('key_alias="nowak-test",check="read"} 1') ? true : undefined), 15_000);
      write(['nowak-test', 'kowalski-test']);
      child.kill('SIGHUP');
      await waitFor('reloaded plan', async () => ((await (await fetch(`${url}/metrics`)).text()).includes('key_alias="kowalski-test"') ? true : undefined), 15_000);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
    expect(child.exitCode).toBe(0);
    for (const value of Object.values(env)) expect(stdout + stderr).not.toContain(value);
  }, 60_000);
});

describe('demo (npm start)', () => {
  test('starts the sandbox and the monitor, prints the URLs, never a key, stops on SIGINT', async () => {
    const child = spawn(process.execPath, [bin, 'demo', '--listen', '127.0.0.1:0', '--log-level', 'info']);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const url = await waitFor('the demo banner', async () => /status page\s+(http:\/\/\S+)\//.exec(out)?.[1], 15_000);
      expect(out).toMatch(/metrics\s+http:\/\/\S+\/metrics/);
      const text = await waitFor('probe series', async () => {
        const body = await (await fetch(`${url}/metrics`)).text();
        return body.includes('repairmon_probe_success{') ? body : undefined;
      }, 15_000);
      expect(text).toContain('key_alias="nowak-test"');
      expect(await (await fetch(`${url}/`)).text()).toContain('<table class="grid"');
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.once('close', r));
    }
    expect(child.exitCode).toBe(0);
    // Demo keys are rs_test_/rs_live_ plus 32 random characters: none may leave the process.
    expect(out).not.toMatch(/rs_(test|live)_[A-Za-z0-9_-]{8,}/);
  }, 60_000);
});

