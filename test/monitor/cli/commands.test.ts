import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseConfigText } from '../../../monitor/config/load.js';
import { projectedSeries } from '../../../monitor/metrics/projection.js';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { runCli, spawnCli, waitFor } from '../../helpers/rig.js';

// These spawn the compiled CLI: run `npm run build` first (npm test does, via pretest).
const fixtures = new URL('../fixtures/', import.meta.url).pathname;

describe('check-config and serve exit codes', () => {
  test('check-config: 2 with every issue listed, 0 with a summary', async () => {
    const bad = await runCli(['check-config', '--config', join(fixtures, 'many-errors.yaml')]);
    expect(bad.code).toBe(2);
    // The schema errors do not hide the unset ${NOWAK_KEY} of the readable key.
    expect(bad.stderr).toContain('6 problem(s)');
    expect(bad.stderr).toContain('targets[0].keys[0].secret: key "nowak-test": environment variable NOWAK_KEY is not set');
    expect(bad.stderr).toContain('targets[0].extra: unknown key');
    const dir = mkdtempSync(join(tmpdir(), 'repairmon-cli-'));
    const file = join(dir, 'ok.yaml');
    writeFileSync(
      file,
      'targets:\n  - name: t\n    baseUrl: http://127.0.0.1:9/api/v1\n    keys:\n      - { alias: a-test, kind: tenant, tenant: rowery-nowak, secret: "${A_KEY}" }\n',
    );
    const good = await runCli(['check-config', '--config', file], { env: { A_KEY: 'rs_test_secretsecretsecret9876' } });
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('key a-test (tenant rowery-nowak; bearer; …9876)');
    expect(good.stdout).not.toContain('secretsecret');
    const parsed = parseConfigText(readFileSync(file, 'utf8'), { env: { A_KEY: 'rs_test_secretsecretsecret9876' }, baseDir: dir });
    if (!parsed.ok) throw new Error('the config is valid');
    expect(good.stdout).toContain(`projected /metrics: ${projectedSeries(parsed.config).total} repairmon_* series for 10 probe(s)`);
    expect(good.stdout).toContain(
      'down after 2 consecutive service-side failures of a read (rechecked 10s after a failure); availability objective 99.5%',
    );
  });

  test('serve: bad config exits 2, unknown flag exits 2, bad --shard exits 2', async () => {
    expect(
      (await runCli(['serve', '--config', join(fixtures, 'unknown-key.yaml')], { env: { NOWAK_KEY: 'rs_test_abcdefghijklmnop1234' } }))
        .code,
    ).toBe(2);
    expect((await runCli(['serve', '--config', 'x.yaml', '--bogus'])).code).toBe(2);
    const shard = await runCli(['serve', '--config', 'x.yaml', '--shard', '5/2']);
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
        [
          'targets:',
          '  - name: sandbox',
          `    baseUrl: ${sandbox.baseUrl}`,
          '    timeout: 2s',
          '    keys:',
          ...aliases.map(
            (a) =>
              `      - { alias: ${a}, kind: tenant, tenant: ${sandbox.key(a).tenant}, secret: "\${KEY_${a.replace(/-/g, '_').toUpperCase()}}" }`,
          ),
        ].join('\n'),
      );
    write(['nowak-test']);
    const env = { KEY_NOWAK_TEST: sandbox.key('nowak-test').key, KEY_KOWALSKI_TEST: sandbox.key('kowalski-test').key };
    const serve = spawnCli(['serve', '--config', file, '--listen', '127.0.0.1:0', '--log-level', 'info'], { env });
    const metrics = async (url: string): Promise<string> => (await fetch(`${url}/metrics`)).text();
    try {
      const url = await waitFor(() => /status (http:\/\/\S+)\//.exec(serve.stdout())?.[1], { what: 'the serve banner' });
      await waitFor(async () => (await metrics(url)).includes('key_alias="nowak-test",check="read"} 1'), {
        what: 'the first round',
        everyMs: 100,
      });
      write(['nowak-test', 'kowalski-test']);
      serve.child.kill('SIGHUP');
      await waitFor(async () => (await metrics(url)).includes('key_alias="kowalski-test"'), { what: 'the reloaded plan', everyMs: 100 });
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
    for (const value of Object.values(env)) expect(serve.stdout() + serve.stderr()).not.toContain(value);
  }, 60_000);
});

describe('demo (npm start)', () => {
  test('starts the sandbox and the monitor, prints the URLs, never a key, stops on SIGINT', async () => {
    const demo = spawnCli(['demo', '--listen', '127.0.0.1:0', '--log-level', 'info']);
    const out = (): string => demo.stdout() + demo.stderr();
    try {
      const url = await waitFor(() => /status page\s+(http:\/\/\S+)\//.exec(out())?.[1], { what: 'the demo banner' });
      expect(out()).toMatch(/metrics\s+http:\/\/\S+\/metrics/);
      const text = await waitFor(
        async () => {
          const body = await (await fetch(`${url}/metrics`)).text();
          // Per-probe series appear with each probe's first result (outcome counters no longer carry keys).
          return /^repairmon_probe_success\{[^}]*key_alias="nowak-test"/m.test(body) && body;
        },
        { what: 'probe series', everyMs: 100 },
      );
      expect(text).toMatch(/^repairmon_probe_success\{[^}]*key_alias="nowak-test"/m);
      expect(await (await fetch(`${url}/`)).text()).toContain('<table class="grid"');
    } finally {
      demo.child.kill('SIGINT');
    }
    expect(await demo.exited).toBe(0);
    // Demo keys are rs_test_/rs_live_ plus 32 random characters: none may leave the process.
    expect(out()).not.toMatch(/rs_(test|live)_[A-Za-z0-9_-]{8,}/);
  }, 60_000);
});
