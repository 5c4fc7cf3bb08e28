import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cronProblem, cronStepProblems } from '../../../monitor/config/cron.js';
import { loadConfigFile, parseConfigText } from '../../../monitor/config/load.js';
import { buildPlan } from '../../../monitor/probe/plan.js';

const fixtures = new URL('../fixtures/', import.meta.url).pathname;
const env = { NOWAK_KEY: 'rs_test_abcdefghijklmnop1234', SPACED_KEY: 'rs_test_abc def' };
const INLINE =
  'inline secrets are refused; write `secret: ${ENV_VAR}` and export the secret in that variable, or use `secretFile: /path/to/file`';

// One fixture per invalid config, with every issue it must produce, exactly.
const CASES: Record<string, string[]> = {
  'unknown-key.yaml': ['targets[1].keys[0].tenat: unknown key'],
  'base-url-not-api-v1.yaml': [
    'targets[0].baseUrl: must end in /api/v1 (the base address contains the version), got path "/api/v2"',
    'targets[1].baseUrl: must not carry credentials (user:password@): a key never goes in a URL',
  ],
  'inline-secret.yaml': [`targets[0].keys[0].secret: ${INLINE}`],
  'missing-env.yaml': ['targets[0].keys[0].secret: key "nowak-test": environment variable REPAIRMON_FIXTURE_UNSET_VAR is not set'],
  'timeout-not-below-interval.yaml': ['targets[0].timeout: timeout 10s must be below the schedule interval (10s for "*/10 * * * * *")'],
  'bad-cron.yaml': ['targets[0].schedule: invalid cron expression "every minute": must have 5 or 6 fields, got 2'],
  'tenant-key-without-tenant.yaml': ['targets[0].keys[0].tenant: a tenant key needs `tenant: <slug>`, the tenant it is assigned to'],
  'bad-slug.yaml': ['targets[0].keys[0].tenants[1]: tenant slug "serwis/kowalski" cannot contain "/": it must be one path segment'],
  'duplicate-alias.yaml': ['targets[0].keys[1].alias: alias "nowak-test" is already used by targets[0].keys[0]'],
  'maintenance-both-forms.yaml': ['targets[0].maintenance[0]: use either `cron` + `duration` or `start` + `end` (ISO 8601)'],
  'both-secret-forms.yaml': ['targets[0].keys[0]: give exactly one of `secret: ${ENV_VAR}` or `secretFile: path`'],
  'missing-secret-file.yaml': [
    `targets[0].keys[0].secretFile: key "nowak-test": cannot read secret file ${fixtures}does-not-exist.key (ENOENT)`,
  ],
  'yaml-syntax.yaml': ['line 4: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4, column 1'],
  'cron-step-out-of-range.yaml': [
    'targets[0].schedule: invalid cron expression "*/61 * * * * *": step "*/61" in the seconds field is out of range: it must be 1 to 59 (seconds run 0-59)',
    'targets[0].maintenance[0].cron: invalid cron expression "0 */25 * * *": step "*/25" in the hours field is out of range: it must be 1 to 23 (hours run 0-23)',
    'targets[0].maintenance[1].cron: invalid cron expression "*/0 * * * *": step "*/0" in the minutes field is out of range: it must be 1 to 59 (minutes run 0-59)',
  ],
  // The schema error does not hide the secret problems of the keys and the token around it.
  'schema-error-and-secrets.yaml': [
    'targets[0].extra: unknown key',
    'targets[0].keys[0].secret: key "nowak-test": environment variable REPAIRMON_FIXTURE_UNSET_VAR is not set',
    `targets[0].keys[1].secretFile: key "kowalski-test": cannot read secret file ${fixtures}does-not-exist.key (ENOENT)`,
    'http.token: HTTP token: environment variable REPAIRMON_FIXTURE_UNSET_TOKEN is not set',
  ],
  'http-token-problems.yaml': [
    "http.onDemandInterval: must be at least 1s: each on-demand probe spends the key's quota",
    'statusPage.prometheusUrl: must be the http(s) address of a Prometheus server, such as http://prometheus:9090',
    'http.token: give at most one of `token: ${ENV_VAR}` or `tokenFile: path`',
    `http.metricsTokenFile: HTTP metrics token: cannot read secret file ${fixtures}does-not-exist.token (ENOENT)`,
  ],
  // YAML's numbers and booleans where a duration belongs: the form is named, not the type.
  'duration-forms.yaml': [
    'targets[0].timeout: must be a duration such as 500ms, 10s, 5m or 2h (a number needs its unit), got 3',
    'targets[0].recheckAfter: must be `off` or a duration from 1s to 1h, such as 10s',
    'targets[1].timeout: must be longer than 0',
  ],
  // The advice names the field's own forms, so following it gives a valid config.
  'inline-http-token.yaml': [
    'http.token: inline secrets are refused; write `token: ${ENV_VAR}` and export the secret in that variable, or use `tokenFile: /path/to/file`',
    'http.metricsToken: inline secrets are refused; write `metricsToken: ${ENV_VAR}` and export the secret in that variable, or use `metricsTokenFile: /path/to/file`',
  ],
  'http-token-too-short.yaml': ['http.tokenFile: HTTP token is shorter than 16 characters; make one with `openssl rand -hex 32`'],
  'bad-expect.yaml': [
    'targets[0].keys[0].expect.logs: must be `read`, `refused` or an error code such as insufficient_scope, got "Insufficient Scope"',
    'targets[0].keys[0].expect.index: unknown key',
  ],
  'tenant-key-expects-platform.yaml': [
    'targets[0].keys[0].expect.platform: a tenant key never reads /platform/ (the platform_refused canary checks its refusal); only platform keys may expect it',
  ],
  'bad-availability.yaml': [
    'targets[0].availability.clients: must be a percentage above 50 and below 100, such as 99.9',
    'targets[0].availability.logs: Invalid input: expected number, received string',
    'targets[0].availability.bogus: unknown key',
    'targets[0].failureThreshold: Too small: expected number to be >=1',
  ],
  'prometheus-url-credentials.yaml': [
    'statusPage.prometheusUrl: must not carry a user name or password (user:password@host): leave them out of monitor.yaml and reach Prometheus through a proxy that adds them',
  ],
  'bad-metrics.yaml': ['metrics.perKeyOutcomes: Invalid input: expected boolean, received string', 'metrics.perProbeOutcomes: unknown key'],
  'many-errors.yaml': [
    'concurrency: Too small: expected number to be >=1',
    'targets[0].baseUrl: must be an http(s) URL ending in /api/v1, such as https://api.example.com/api/v1',
    'targets[0].timeout: must be a duration such as 500ms, 10s, 5m or 2h',
    'targets[0].keys[0].kind: Invalid option: expected one of "platform"|"tenant"',
    'targets[0].extra: unknown key',
  ],
  'tenant-key-with-tenants.yaml': ['targets[0].keys[0].tenants: only platform keys list `tenants`; a tenant key probes its own tenant'],
  'platform-key-with-tenant.yaml': [
    'targets[0].keys[0].tenant: a platform key is not assigned to a tenant; list the tenants to probe under `tenants: [...]`',
  ],
  'cron-window-without-duration.yaml': ['targets[0].maintenance[0]: a cron window needs both `cron` and `duration`'],
  'fixed-window-without-end.yaml': ['targets[0].maintenance[0]: a fixed window needs both `start` and `end`'],
  'window-ends-before-start.yaml': ['targets[0].maintenance[0].end: `end` must be after `start`'],
  'duplicate-target-name.yaml': ['targets[1].name: target name "prod" is already used by targets[0]'],
  'empty-secret-file.yaml': [
    `targets[0].keys[0].secretFile: key "nowak-test": secret file ${fixtures}empty.key is empty or contains whitespace`,
  ],
  'env-key-with-whitespace.yaml': [
    'targets[0].keys[0].secret: key "nowak-test": environment variable SPACED_KEY is empty or contains whitespace',
  ],
  'empty-file.yaml': ['targets: is required'],
  'not-a-mapping.yaml': ['(top level): Invalid input: expected object, received array'],
  'no-keys.yaml': ['targets[0].keys: Too small: expected array to have >=1 items'],
  'bad-leaf-values.yaml': [
    'historyPerProbe: Too small: expected number to be >=2',
    'targets[0].name: cannot contain control characters',
    'targets[0].baseUrl: must be an http(s) URL ending in /api/v1, such as https://api.example.com/api/v1',
    'targets[0].maxBodyBytes: Too small: expected number to be >=1024',
    'targets[0].slo.clients: must be a duration such as 500ms, 10s, 5m or 2h',
    'targets[0].slo.teleport: unknown key',
    'targets[0].canaries.everything: unknown key',
    'targets[0].keys[0].auth: Invalid option: expected one of "bearer"|"x-api-key"',
  ],
};

describe('invalid configs', () => {
  test('every bad-config fixture has its case here (the one folder for them)', () => {
    expect(
      readdirSync(fixtures)
        .filter((f) => f.endsWith('.yaml'))
        .sort(),
    ).toEqual(Object.keys(CASES).sort());
  });

  for (const [file, expected] of Object.entries(CASES)) {
    test(file, () => {
      const result = loadConfigFile(join(fixtures, file), env);
      expect(result.ok).toBe(false);
      const lines = result.ok ? [] : result.issues.map((i) => `${i.path || '(top level)'}: ${i.message}`);
      expect(lines).toEqual(expected);
    });
  }

  test('an inline secret is never echoed back, nor a password in statusPage.prometheusUrl', () => {
    const result = loadConfigFile(join(fixtures, 'inline-secret.yaml'), env);
    expect(JSON.stringify(result)).not.toContain('pasted_literal');
    expect(JSON.stringify(loadConfigFile(join(fixtures, 'prometheus-url-credentials.yaml'), env))).not.toContain(
      'fixture-prometheus-password',
    );
  });
});

describe('cron steps and fields', () => {
  test('steps past the span of their field are refused, in range ones pass', () => {
    expect(cronStepProblems('*/59 */30 */23 */30 */11 */6')).toEqual([]);
    expect(cronStepProblems('*/60 * * * * *')).toEqual([
      'step "*/60" in the seconds field is out of range: it must be 1 to 59 (seconds run 0-59)',
    ]);
    expect(cronStepProblems('0 0 */24 * * *')).toEqual([
      'step "*/24" in the hours field is out of range: it must be 1 to 23 (hours run 0-23)',
    ]);
    expect(cronStepProblems('0-10/15 * * * * *')).toEqual([
      'step "0-10/15" in the seconds field is out of range: it must be 1 to 10 (seconds run 0-59)',
    ]);
    expect(cronStepProblems('*/7 * * * *')).toEqual([]);
    expect(cronProblem('*/61 * * * *')).toBe('step "*/61" in the minutes field is out of range: it must be 1 to 59 (minutes run 0-59)');
  });
});

describe('http and statusPage settings', () => {
  test('tokens resolve like keys, print as their alias, and defaults apply', () => {
    const dir = mkdtempSync(join(tmpdir(), 'repairmon-config-'));
    writeFileSync(join(dir, 'metrics.token'), 'metrics-token-0123456789abcdef\n');
    const text = [
      'http: { token: "${HTTP_TOKEN}", metricsTokenFile: metrics.token }',
      'statusPage: { prometheusUrl: "http://prometheus:9090/" }',
      'targets: [{ name: t, baseUrl: "http://h/api/v1", keys: [{ alias: k, kind: tenant, tenant: x, secret: "${NOWAK_KEY}" }] }]',
    ].join('\n');
    const result = parseConfigText(text, { env: { ...env, HTTP_TOKEN: 'http-token-0123456789abcdef' }, baseDir: dir });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.config.http?.token?.reveal()).toBe('http-token-0123456789abcdef');
    expect(String(result.config.http?.token)).toBe('http.token(…cdef)');
    expect(result.config.http?.metricsToken?.reveal()).toBe('metrics-token-0123456789abcdef');
    expect(result.config.http?.onDemandIntervalMs).toBe(10_000);
    expect(result.config.statusPage).toEqual({ prometheusUrl: 'http://prometheus:9090', prometheusTimeoutMs: 2_000 });
    expect(result.config.targets[0]!.keys[0]!.origin).toEqual({ kind: 'env', name: 'NOWAK_KEY' });
    expect(JSON.stringify(result.config)).not.toContain('0123456789abcdef');
  });
});

describe('valid configs', () => {
  test('defaults apply and secrets resolve from env and file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'repairmon-config-'));
    writeFileSync(join(dir, 'platform.key'), 'rs_test_platformplatform9876\n');
    const text = [
      'targets:',
      '  - name: test',
      '    baseUrl: http://127.0.0.1:1/api/v1',
      '    canaries: { public_docs: false }',
      '    keys:',
      '      - { alias: platform-test, kind: platform, tenants: [rowery-nowak, cykl-gdansk], secretFile: platform.key }',
      '      - { alias: nowak-test, kind: tenant, tenant: rowery-nowak, auth: x-api-key, secret: "${NOWAK_KEY}" }',
    ].join('\n');
    const result = parseConfigText(text, { env, baseDir: dir });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const target = result.config.targets[0]!;
    expect(target.schedule).toBe('*/30 * * * * *');
    expect(target.intervalMs).toBe(30_000);
    expect(target.timeoutMs).toBe(10_000);
    expect(target.canaries).toEqual({
      cross_tenant: true,
      invalid_key: true,
      public_docs: false,
      other_header: true,
      platform_refused: true,
      index_access: true,
    });
    // The readings' defaults: no /platform/ path probed, nothing asserted about GET /.
    expect(target.platformPaths).toEqual([]);
    expect(target.indexAccess).toBe('unknown');
    expect(target.keys[0]!.key.reveal()).toBe('rs_test_platformplatform9876');
    expect(String(target.keys[1]!.key)).toBe('nowak-test(…1234)');
    const plan = buildPlan(result.config);
    const ids = plan.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    // index + docs, 2x4 platform-key tenant reads, 4 tenant reads, canaries: invalid_key,
    // other_header x2, cross_tenant. No /platform/ read or refusal, no index_access: not configured.
    expect(plan.length).toBe(2 + 8 + 4 + 4);
    expect(plan.find((p) => p.check === 'cross_tenant')?.tenant).toBe('cykl-gdansk');
    expect(plan.some((p) => p.endpoint === 'platform' || p.check === 'index_access')).toBe(false);
    // The invalid-key canary asks a path the spec says needs a key, never `/`.
    expect(plan.find((p) => p.check === 'invalid_key')).toMatchObject({ endpoint: 'clients', tenant: 'rowery-nowak' });
    // Alerting defaults: down after 2 service-side failures in a row; 99.5 % availability everywhere.
    expect(target.failureThreshold).toBe(2);
    expect(target.recheckAfterMs).toBe(10_000);
    expect(new Set(Object.values(target.availability))).toEqual(new Set([0.995]));
    expect(result.config.metrics).toEqual({ perKeyOutcomes: false });
    expect(target.keys.map((k) => k.expect)).toEqual([{}, {}]);
  });

  test('a schema error in one target hides no cross-field problem of the others: every problem at once', () => {
    const text = [
      'targets:',
      '  - name: a',
      '    baseUrl: http://127.0.0.1:1/api/v2',
      '    schedule: "*/10 * * * * *"',
      '    timeout: 20s',
      '    keys:',
      '      - { alias: k1, kind: tenant, tenant: t, secret: "${NOWAK_KEY}" }',
      '      - { alias: k1, kind: tenant, tenant: t, secret: "${NOWAK_KEY}" }',
      '  - name: a',
      '    baseUrl: ftp://x/api/v1',
      '    keys: [{ alias: k, kind: tenant, tenant: t, secret: "${NOWAK_KEY}" }]',
    ].join('\n');
    const result = parseConfigText(text, { env, baseDir: '/' });
    // A refused target named like a key: its own issue, never an echo in a duplicate message.
    const keyNamed = parseConfigText(text.replaceAll('name: a', 'name: rs_live_abcdefghijklmnopqrstuvwx1234'), { env, baseDir: '/' });
    expect(JSON.stringify(keyNamed)).not.toContain('abcdefghijklmnop');
    expect(result.ok ? [] : result.issues.map((i) => i.path).sort()).toEqual([
      'targets[0].baseUrl',
      'targets[0].keys[1].alias',
      'targets[0].timeout',
      'targets[1].baseUrl',
      'targets[1].name',
    ]);
  });

  test('recheckAfter: a duration below the schedule interval, or off; at or above the interval it is refused by name', () => {
    const config = (recheck: string, schedule = '*/30 * * * * *') =>
      parseConfigText(
        [
          'targets:',
          '  - name: test',
          '    baseUrl: http://127.0.0.1:1/api/v1',
          `    schedule: "${schedule}"`,
          `    recheckAfter: ${recheck}`,
          '    keys: [{ alias: nowak, kind: tenant, tenant: rowery-nowak, secret: "${NOWAK_KEY}" }]',
        ].join('\n'),
        { env, baseDir: '/' },
      );
    const ms = (recheck: string): number | undefined => {
      const result = config(recheck);
      return result.ok ? result.config.targets[0]!.recheckAfterMs : undefined;
    };
    expect(ms('5s')).toBe(5_000);
    expect(ms('off')).toBe(0);
    const burst = config('500ms');
    expect(burst.ok ? [] : burst.issues).toEqual([
      { path: 'targets[0].recheckAfter', message: 'recheckAfter 500ms must be from 1s to 1h, or off' },
    ]);
    // A yearly schedule: below its interval, but no longer a recheck (and past what a timer holds).
    const long = config('720h', '0 0 0 1 1 *');
    expect(long.ok ? [] : long.issues).toEqual([
      { path: 'targets[0].recheckAfter', message: 'recheckAfter 720h must be from 1s to 1h, or off' },
    ]);
    const tooLong = config('30s');
    expect(tooLong.ok ? [] : tooLong.issues).toEqual([
      {
        path: 'targets[0].recheckAfter',
        message: 'recheckAfter 30s must be below the schedule interval (30s for "*/30 * * * * *"), or off',
      },
    ]);
    const notDuration = config('soon');
    expect(notDuration.ok ? [] : notDuration.issues.map((i) => i.path)).toEqual(['targets[0].recheckAfter']);
  });

  test('expect, availability, failureThreshold and metrics.perKeyOutcomes are read as written', () => {
    const text = [
      'metrics: { perKeyOutcomes: true }',
      'targets:',
      '  - name: test',
      '    baseUrl: http://127.0.0.1:1/api/v1',
      '    failureThreshold: 3',
      '    availability: { default: 99, clients: 99.9 }',
      '    keys:',
      '      - { alias: nowak-nologs, kind: tenant, tenant: rowery-nowak, secret: "${NOWAK_KEY}", expect: { logs: insufficient_scope, bikes: refused, clients: read } }',
    ].join('\n');
    const result = parseConfigText(text, { env, baseDir: '/' });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const target = result.config.targets[0]!;
    expect(result.config.metrics).toEqual({ perKeyOutcomes: true });
    expect(target.failureThreshold).toBe(3);
    expect(target.availability).toMatchObject({ clients: 0.999, bikes: 0.99, index: 0.99 });
    expect(target.keys[0]!.expect).toEqual({
      logs: { kind: 'refused', code: 'insufficient_scope' },
      bikes: { kind: 'refused', code: undefined },
    });
    const plan = buildPlan(result.config);
    const read = (endpoint: string) => plan.find((p) => (p.check === 'read' || p.check === 'expected_refusal') && p.endpoint === endpoint)!;
    expect(read('logs')).toMatchObject({
      check: 'expected_refusal',
      expect: {
        kind: 'refusal',
        outcome: 'insufficient_scope',
        specCode: 'insufficient_scope',
        codeSource: 'config',
        breach: 'unexpected_access',
      },
    });
    expect(read('bikes')).toMatchObject({
      check: 'expected_refusal',
      expect: { kind: 'refusal', specCode: undefined, breach: 'unexpected_access' },
    });
    expect(read('clients')).toMatchObject({ check: 'read', expect: { kind: 'success', list: true } });
    // The other-header canary reads a resource the key may read.
    expect(plan.find((p) => p.check === 'other_header')).toMatchObject({ endpoint: 'clients' });
  });

  test('platformPaths and indexAccess turn on the platform reads, the refusal canaries and the index canary', () => {
    const text = [
      'targets:',
      '  - name: test',
      '    baseUrl: http://127.0.0.1:1/api/v1',
      '    platformPaths: [tenants, /platform/admin/keys]',
      '    indexAccess: public',
      '    keys:',
      '      - { alias: platform-test, kind: platform, tenants: [rowery_nowak], secret: "${NOWAK_KEY}" }',
      '      - { alias: nowak-test, kind: tenant, tenant: rowery_nowak, secret: "${NOWAK_KEY}" }',
    ].join('\n');
    const result = parseConfigText(text, { env, baseDir: '/' });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.config.targets[0]!.platformPaths).toEqual(['tenants', 'admin/keys']);
    const plan = buildPlan(result.config);
    expect(plan.filter((p) => p.endpoint === 'platform' && p.check === 'read').map((p) => p.path)).toEqual([
      '/platform/tenants',
      '/platform/admin/keys',
    ]);
    expect(plan.filter((p) => p.check === 'platform_refused').map((p) => [p.keyAlias, p.path])).toEqual([
      ['nowak-test', '/platform/tenants'],
      ['nowak-test', '/platform/admin/keys'],
    ]);
    expect(plan.find((p) => p.check === 'index_access')).toMatchObject({
      path: '/',
      expect: { kind: 'success' },
      credential: { kind: 'none' },
    });
    expect(new Set(plan.map((p) => p.id)).size).toBe(plan.length);
  });

  test('aliases and slugs are taken as written: spaces, a slash, Polish letters, snake_case; probe ids stay distinct', () => {
    const text = [
      'targets:',
      '  - name: Produkcja Łódź',
      '    baseUrl: http://h/api/v1',
      '    keys:',
      '      - { alias: "nowak / prod", kind: tenant, tenant: rowery_nowak, secret: "${NOWAK_KEY}" }',
      '      - { alias: "nowak", kind: tenant, tenant: "/ prod", secret: "${NOWAK_KEY}" }',
    ].join('\n');
    const result = parseConfigText(text, { env, baseDir: '/' });
    expect(result.ok ? [] : result.issues).toEqual([
      { path: 'targets[0].keys[1].tenant', message: 'tenant slug "/ prod" cannot contain "/": it must be one path segment' },
    ]);
    const fine = parseConfigText(text.replace('"/ prod"', '"serwis kowalski"'), { env, baseDir: '/' });
    if (!fine.ok) throw new Error(JSON.stringify(fine.issues));
    const ids = buildPlan(fine.config).map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('Produkcja%20%C5%81%C3%B3d%C5%BA/nowak%20%2F%20prod/rowery_nowak/clients/read');
  });

  test('a bad platform path or indexAccess is named', () => {
    const text = [
      'targets:',
      '  - name: t',
      '    baseUrl: http://h/api/v1',
      '    platformPaths: ["", "a/../b"]',
      '    indexAccess: maybe',
      '    keys: [{ alias: k, kind: tenant, tenant: x, secret: "${NOWAK_KEY}" }]',
    ].join('\n');
    const result = parseConfigText(text, { env, baseDir: '/' });
    expect(result.ok ? [] : result.issues.map((i) => i.path)).toEqual([
      'targets[0].platformPaths[0]',
      'targets[0].platformPaths[1]',
      'targets[0].indexAccess',
    ]);
  });

  test('the shipped example validates as it is, and with its commented targets uncommented', () => {
    const example = new URL('../../../monitor/examples/monitor.yaml', import.meta.url).pathname;
    const exampleEnv = {
      REPAIRMON_PLATFORM_TEST_KEY: 'rs_test_aaaaaaaaaaaaaaaa1111',
      REPAIRMON_NOWAK_TEST_KEY: 'rs_test_bbbbbbbbbbbbbbbb2222',
      REPAIRMON_NOWAK_PROD_KEY: 'rs_live_cccccccccccccccc3333',
      REPAIRMON_NOWAK_NOLOGS_TEST_KEY: 'rs_test_dddddddddddddddd4444',
      REPAIRMON_KOWALSKI_TEST_KEY: 'rs_test_eeeeeeeeeeeeeeee5555',
    };
    const result = loadConfigFile(example, exampleEnv);
    expect(result.ok ? [] : result.issues.map((i) => i.path)).toEqual([]);
    // The targets it shows commented out (production, staging with tls) are valid too; only the private CA is absent.
    const [active = '', more = ''] = readFileSync(example, 'utf8').split(/^# More targets.*$/m);
    const uncommented = `${active}${more.replace(/^# /gm, '')}`;
    const all = parseConfigText(uncommented, { env: exampleEnv, baseDir: dirname(example) });
    expect(all.ok ? [] : all.issues.map((i) => i.path)).toEqual(['targets[2].tls.caFile']);
  });
});
