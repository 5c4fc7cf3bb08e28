/**
 * `repairmon check-config` beyond validity: warnings (a 5-field schedule, a schedule the probes
 * cannot keep up with, a recheck that can rarely start before the next tick), the load line, and `--connect` trying each target once.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.js';
import { runMain } from '../../helpers/fake-io.js';
import { closedPort } from '../../helpers/rig.js';

const dir = mkdtempSync(join(tmpdir(), 'repairmon-check-'));

async function check(yaml: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, yaml);
  return runMain(['check-config', '--config', file, ...args], env);
}

describe('warnings and load', () => {
  it('a 5-field schedule is explained; a schedule the probes cannot keep up with is warned about; still exit 0', async () => {
    const keys = Array.from({ length: 12 }, (_, i) => `      - { alias: k${i}-test, kind: tenant, tenant: shop-${i}, secret: "\${KEY}" }`);
    const yaml = [
      'concurrency: 2',
      'targets:',
      '  - name: t',
      '    baseUrl: http://127.0.0.1:9/api/v1',
      '    schedule: "* * * * *"',
      '    timeout: 10s',
      '    keys:',
      ...keys,
    ].join('\n');
    const { code, stdout } = await check(yaml, [], { KEY: 'rs_test_abcdefghijklmnop1234' });
    expect(code).toBe(0);
    expect(stdout).toContain('2 warning(s):');
    expect(stdout).toContain(
      '  targets[0].schedule: "* * * * *" has 5 fields, so its first field is minutes: it fires at second 0 of each matching minute (every 1m)',
    );
    // 2 shared + 12 keys x (4 reads + cross_tenant + other_header) + invalid_key + public_docs = 76 probes.
    expect(stdout).toContain('  targets[0]: 76 probes per tick / concurrency 2 x timeout 10s = 380 s, more than the 1m between ticks');
    expect(stdout).toMatch(/^projected \/metrics: \d+ repairmon_\* series for 76 probe\(s\)/m);
    // Per key is what a key adds; the shared series apart: 12 x per key + shared is the total, give or take rounding.
    const [, total, perKey, shared] = /: (\d+) repairmon_\* series .*~(\d+) per key, (\d+) shared;/.exec(stdout) ?? [];
    expect(Math.abs(12 * Number(perKey) + Number(shared) - Number(total))).toBeLessThanOrEqual(6);
  });

  it('a recheckAfter too close to the interval for most reads to be rechecked is warned about; a shorter one is not', async () => {
    const yaml = (recheckAfter: string): string =>
      [
        'targets:',
        '  - name: t',
        '    baseUrl: http://127.0.0.1:9/api/v1',
        '    schedule: "*/30 * * * * *"',
        '    timeout: 10s',
        `    recheckAfter: ${recheckAfter}`,
        '    keys:',
        '      - { alias: a-test, kind: tenant, tenant: rowery-nowak, secret: "${KEY}" }',
      ].join('\n');
    const late = await check(yaml('25s'), [], { KEY: 'rs_test_abcdefghijklmnop1234' });
    expect(late.code).toBe(0);
    // Spread over (30 - 10) x 0.8 = 16 s; a recheck 25 s later starts before the next tick for the first 5 s of it.
    expect(late.stdout).toContain(
      '  targets[0].recheckAfter: 25s after a failure, at an interval of 30s: a recheck must start before the next tick, so only reads probed in the first 31 % of the round',
    );
    for (const fine of ['10s', 'off']) {
      const { code, stdout } = await check(yaml(fine), [], { KEY: 'rs_test_abcdefghijklmnop1234' });
      expect(code).toBe(0);
      expect(stdout, fine).not.toContain('warning');
    }
  });

  it('a plain valid config has no warnings', async () => {
    const yaml =
      'targets:\n  - name: t\n    baseUrl: http://127.0.0.1:9/api/v1\n    keys:\n      - { alias: a-test, kind: tenant, tenant: rowery-nowak, secret: "${KEY}" }\n';
    const { code, stdout } = await check(yaml, [], { KEY: 'rs_test_abcdefghijklmnop1234' });
    expect(code).toBe(0);
    expect(stdout).not.toContain('warning');
  });
});

describe('--connect', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => sandbox.close());

  const target = (name: string, baseUrl: string, aliases: string[]): string[] => [
    `  - name: ${name}`,
    `    baseUrl: ${baseUrl}`,
    '    keys:',
    ...aliases.map(
      (a) => `      - { alias: ${a}, kind: tenant, tenant: ${sandbox.key(a).tenant}, secret: "\${K_${a.replace(/-/g, '_')}}" }`,
    ),
  ];
  const env = (): NodeJS.ProcessEnv => Object.fromEntries(sandbox.keys.map((k) => [`K_${k.alias.replace(/-/g, '_')}`, k.key]));
  /** `check-config --connect` on one target's lines while the sandbox answers with `faults`. */
  const connectWithFaults = async (faults: string, targetLines: string[]) => {
    sandbox.setFaults(faults);
    try {
      return await check(['targets:', ...targetLines].join('\n'), ['--connect'], env());
    } finally {
      sandbox.setFaults('');
    }
  };

  it('every target answering as the API and every key reading: exit 0, one line per request', async () => {
    const yaml = ['targets:', ...target('good', sandbox.baseUrl, ['nowak-test', 'kowalski-test'])].join('\n');
    sandbox.clearRequests();
    const { code, stdout, stderr } = await check(yaml, ['--connect'], env());
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain(`connect good (${sandbox.baseUrl}): answers as the API`);
    expect(stdout).toMatch(/ok {3}GET \/docs \(no key\): HTTP 200, ok, \d+ ms/);
    expect(stdout).toMatch(/ok {3}key nowak-test: GET \/tenants\/rowery-nowak\/clients: HTTP 200, ok/);
    // Once each: /docs and one read per key.
    expect(sandbox.requests()).toHaveLength(3);
    expect(stderr).toBe('');
  });

  it('a refused key, a tenant typo and a misassigned tenant: the API answers, but exit 1 naming each key at fault', async () => {
    const yaml = [
      'targets:',
      ...target('good', sandbox.baseUrl, ['nowak-test', 'nowak-revoked-test']),
      // A tenant key given another shop's slug (403 tenant_key_tenant_mismatch) and a platform key with a typo (404).
      '      - { alias: kowalski-test, kind: tenant, tenant: rowery-nowak, secret: "${K_kowalski_test}" }',
      '      - { alias: platform-test, kind: platform, tenants: [rowery-nowk], secret: "${K_platform_test}" }',
    ].join('\n');
    const { code, stdout, stderr } = await check(yaml, ['--connect'], env());
    expect(code, stdout + stderr).toBe(1);
    expect(stdout).toContain(`connect good (${sandbox.baseUrl}): answers as the API`);
    expect(stdout).toMatch(
      /API {2}key nowak-revoked-test: GET \/tenants\/rowery-nowak\/clients: HTTP 401, unauthorized \(code_unauthorized\)/,
    );
    expect(stderr).toContain('3 key(s) refused:');
    expect(stderr).toContain(
      "key nowak-revoked-test on target good: GET /tenants/rowery-nowak/clients got HTTP 401 unauthorized: the API refuses this key here: check the key's tenant, kind and secret in monitor.yaml",
    );
    expect(stderr).toContain(
      'key kowalski-test on target good: GET /tenants/rowery-nowak/clients got HTTP 403 tenant_key_tenant_mismatch: the API refuses this key here',
    );
    expect(stderr).toContain(
      'key platform-test on target good: GET /tenants/rowery-nowk/clients got HTTP 404 not_found: the API does not know this path: check the tenant (or platformPaths) in monitor.yaml',
    );
    expect(stderr).not.toContain('nowak-test on');
    for (const k of sandbox.keys) expect(stdout + stderr).not.toContain(k.key);
  });

  it('a wrong port fails now, not minutes later: exit 1 naming the target and the reason', async () => {
    const port = await closedPort();
    const yaml = [
      'targets:',
      ...target('good', sandbox.baseUrl, ['nowak-test']),
      ...target('wrong-port', `http://127.0.0.1:${port}/api/v1`, ['kowalski-test']),
    ].join('\n');
    const { code, stdout } = await check(yaml, ['--connect'], env());
    expect(code).toBe(1);
    expect(stdout).toContain(`connect good (${sandbox.baseUrl}): answers as the API`);
    expect(stdout).toContain(`connect wrong-port (http://127.0.0.1:${port}/api/v1): does NOT answer as the API`);
    expect(stdout).toMatch(/FAIL GET \/docs \(no key\): no answer, connection_error \(connection_econnrefused\)/);
  });

  it('something that is not the API (an HTML 502 on /docs) fails too', async () => {
    const { code, stdout } = await connectWithFaults('html-502', target('proxy', sandbox.baseUrl, ['nowak-test']));
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL GET \/docs \(no key\): HTTP 502, server_error \(status_502\)/);
  });

  it('a /docs failing with the API envelope (a 503) is named, not called slow or something else: exit 1', async () => {
    const { code, stdout } = await connectWithFaults('status:503@/docs', target('docs503', sandbox.baseUrl, ['nowak-test']));
    expect(code).toBe(1);
    expect(stdout).toContain(`connect docs503 (${sandbox.baseUrl}): answers with the API's envelope, but GET /docs failed: HTTP 503`);
    expect(stdout).not.toContain('slow');
  });

  it("an API slower than the target's timeout is said to be slow, not to be something else: still exit 1", async () => {
    const { code, stdout } = await connectWithFaults('latency:3000@/tenants/*/clients', [
      ...target('slow', sandbox.baseUrl, ['nowak-test']),
      '    timeout: 1s',
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      `connect slow (${sandbox.baseUrl}): answers as the API, but 1 of 2 calls got no answer within 1s: the API is slow there (or the timeout is too short)`,
    );
    expect(stdout).toMatch(/FAIL key nowak-test: GET \/tenants\/rowery-nowak\/clients: no answer, timeout/);
  });
});
