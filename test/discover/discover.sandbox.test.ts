/**
 * `repairmon discover` end to end against the real sandbox, with its demo keys: the built CLI as
 * a child process for a run of each exit code and output form (JSON, table, the emitted config
 * refused), the CLI's entry in this process for the other findings. The findings are today's
 * sandbox's readings; the sandbox's own request log shows what was sent (GET only, within the
 * budget), and no output may hold a key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { targetSchema } from '../../monitor/config/schema.js';
import { type DiscoveryReport, MAX_REQUESTS } from '../../discover/index.js';
import { type MainRun, runMain } from '../helpers/fake-io.js';
import { closedPort, ensureBuilt, runCli } from '../helpers/rig.js';

let sandbox: RunningSandbox;
const outputs: { alias: string; run: MainRun }[] = [];

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ port: 0, rateLimit: '1000/1m' });
});
afterAll(async () => {
  await sandbox?.close();
});

/** A child process when `child`, else in this process. */
async function cli(alias: string | undefined, args: readonly string[], faults = '', child = false): Promise<MainRun> {
  sandbox.setFaults(faults);
  sandbox.clearRequests();
  const env: Record<string, string> = alias === undefined ? {} : { OPS_KEY: sandbox.key(alias).key };
  const argv = ['discover', '--timeout', '5', ...(alias === undefined ? [] : ['--key-env', 'OPS_KEY']), ...args];
  const run = child ? await runCli(argv, { env }) : await runMain(argv, env, '');
  outputs.push({ alias: alias ?? '(no key)', run });
  return run;
}

async function discoverJson(alias: string | undefined, args: readonly string[] = [], child = false): Promise<DiscoveryReport> {
  const run = await cli(alias, ['--base-url', sandbox.baseUrl, '--json', ...args], '', child);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as DiscoveryReport;
}

const refusal = (status: number, code: string) => ({ kind: 'learned', reading: { status, code } });

describe('repairmon discover against the sandbox', () => {
  it('without a key: what needs none, and which findings need one', async () => {
    const report = await discoverJson(undefined, [], true);
    expect(report.findings).toMatchObject({
      indexAccess: { kind: 'learned', reading: 'key', evidence: 'GET / without a key -> HTTP 401 unauthorized' },
      invalidKey: refusal(401, 'unauthorized'),
      missingKey: refusal(401, 'unauthorized'),
      platformPaths: { kind: 'learned', reading: ['tenants', 'keys'] },
      requestIdHeader: { kind: 'learned', reading: 'x-request-id' },
      keyKind: { kind: 'unknown' },
    });
    expect(report.needKey).toEqual(['keyKind', 'platformRefusal', 'readableResources', 'scopeRefusal', 'rateLimitHeaders']);
    expect(sandbox.requests().map((r) => r.keyAlias ?? '-')).toEqual(['-', '-', '-', '-']);
  });

  it('tenant key with --tenant: a tenant key refused on /platform/, every resource read, kebab slugs, ietf headers', async () => {
    const report = await discoverJson('nowak-test', ['--tenant', 'rowery-nowak']);
    expect(report.keyHint).toBe(`…${sandbox.key('nowak-test').key.slice(-4)}`);
    expect(report.findings).toMatchObject({
      indexAccess: { reading: 'key' },
      invalidKey: refusal(401, 'unauthorized'),
      missingKey: refusal(401, 'unauthorized'),
      platformPaths: { reading: ['tenants', 'keys'] },
      keyKind: { kind: 'learned', reading: 'tenant' },
      platformRefusal: refusal(403, 'platform_key_required'),
      readableResources: { kind: 'learned', reading: ['clients', 'bikes', 'repairs', 'logs'] },
      scopeRefusal: { kind: 'unknown', why: expect.stringMatching(/^not observed: /) },
      slugStyle: { kind: 'learned', reading: 'kebab' },
      rateLimitHeaders: { kind: 'learned', reading: 'ietf' },
      requestIdHeader: { kind: 'learned', reading: 'x-request-id' },
    });
    expect(report.needKey).toEqual([]);
    expect(report.needTenant).toEqual([]);
  });

  it('a key without the logs scope: the scope refusal, 403 insufficient_scope', async () => {
    const report = await discoverJson('nowak-nologs-test', ['--tenant', 'rowery-nowak', '--auth', 'x-api-key']);
    expect(report.auth).toBe('x-api-key');
    expect(report.findings.readableResources).toMatchObject({ reading: ['clients', 'bikes', 'repairs'] });
    expect(report.findings.scopeRefusal).toEqual({
      kind: 'learned',
      reading: { status: 403, code: 'insufficient_scope' },
      evidence: 'GET /tenants/rowery-nowak/logs with the key -> HTTP 403 insufficient_scope',
    });
  });

  it('platform key: /platform/tenants answers, its listing gives kebab slugs and the tenant of the refusal calls', async () => {
    const report = await discoverJson('platform-test');
    expect(report.findings.keyKind).toEqual({
      kind: 'learned',
      reading: 'platform',
      evidence: 'GET /platform/tenants with the key -> HTTP 200',
    });
    expect(report.findings.platformRefusal).toMatchObject({ kind: 'unknown', why: expect.stringMatching(/^needs a tenant key/) });
    expect(report.findings.slugStyle).toMatchObject({
      kind: 'learned',
      reading: 'kebab',
      evidence: expect.stringContaining('"rowery-nowak", "serwis-kowalski", "cykl-gdansk"'),
    });
    expect(report.findings.invalidKey).toMatchObject({
      evidence: `GET /tenants/${sandbox.tenants[0]}/clients with a made-up key -> HTTP 401 unauthorized`,
    });
  });

  it("--platform-path: only that path is asked; a wrong one (404) leaves the key's kind unknown, saying why", async () => {
    const given = await discoverJson('platform-test', ['--platform-path', 'keys']);
    expect(
      sandbox
        .requests()
        .filter((r) => r.path.includes('/platform/'))
        .map((r) => r.path),
    ).toEqual(['/api/v1/platform/keys']);
    expect(given.findings.platformPaths).toMatchObject({
      kind: 'learned',
      reading: ['keys'],
      evidence: '--platform-path /platform/keys (/docs lists /platform/tenants, /platform/keys)',
    });
    expect(given.findings.keyKind).toMatchObject({ kind: 'learned', reading: 'platform' });
    const wrong = await discoverJson('platform-test', ['--platform-path', 'shops']);
    expect(wrong.findings.keyKind).toMatchObject({
      kind: 'unknown',
      why: expect.stringContaining('GET /platform/shops answered HTTP 404 and /docs does not list that path'),
    });
  });

  it('sends only GETs, one at a time, within the budget, the key only where planned', async () => {
    await discoverJson('platform-test', ['--tenant', 'rowery-nowak']);
    const sent = sandbox.requests();
    expect(sent.length).toBeLessThanOrEqual(MAX_REQUESTS);
    expect(sent.length).toBe(11);
    expect(new Set(sent.map((r) => r.method))).toEqual(new Set(['GET']));
    expect(sent.map((r) => r.path)[0]).toBe('/api/v1/docs');
    expect(sent.filter((r) => r.keyAlias === 'platform-test').length).toBe(7);
    expect(sent.every((r, i) => i === 0 || r.at >= sent[i - 1]!.at)).toBe(true);
  });

  it('--emit monitor-config: only a YAML fragment that passes the monitor schema for a target', async () => {
    const run = await cli('nowak-test', ['--base-url', sandbox.baseUrl, '--emit', 'monitor-config']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const fields = parse(run.stdout) as Record<string, unknown>;
    expect(targetSchema.pick({ indexAccess: true, platformPaths: true }).strict().parse(fields)).toEqual({
      indexAccess: 'key',
      platformPaths: ['tenants', 'keys'],
    });
    const target = targetSchema.parse({
      name: 'real',
      baseUrl: sandbox.baseUrl,
      keys: [{ alias: 'nowak-test', kind: 'tenant', tenant: 'rowery-nowak', secret: '${K}' }],
      ...fields,
    });
    expect(target).toMatchObject({ indexAccess: 'key', platformPaths: ['tenants', 'keys'] });
    expect(run.stdout).toContain('# GET / without a key -> HTTP 401 unauthorized\nindexAccess: key\n');
  });

  it('prints the table when not --json', async () => {
    const run = await cli('nowak-test', ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak'], '', true);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^platformRefusal\s+HTTP 403 platform_key_required\s+GET \/platform\/tenants with the key -> HTTP 403 platform_key_required/m,
    );
    expect(run.stdout).toMatch(/^rateLimitHeaders\s+ietf\s+GET \/ with the key -> ratelimit-limit: 1000/m);
  });
});

describe('a host that does not answer as API v1: exit 1, nothing but /docs sent', () => {
  it('connection refused', async () => {
    const run = await cli('nowak-test', ['--base-url', `http://127.0.0.1:${await closedPort()}/api/v1`, '--json'], '', true);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as DiscoveryReport;
    expect(report.host).toMatchObject({ kind: 'not_api_v1', why: expect.stringContaining('no answer (connection ECONNREFUSED)') });
    expect(report.requests.made).toBe(1);
  });

  it.each([
    ['a wrong base path (a 404 envelope)', (s: RunningSandbox) => `${s.origin}/v2/api/v1`, '', 'HTTP 404 not_found'],
    ["a proxy's HTML page", (s: RunningSandbox) => s.baseUrl, 'html-502@/docs', 'HTTP 502, no envelope (text/html'],
    [
      'a redirect',
      (s: RunningSandbox) => s.baseUrl,
      'redirect:https://login.example.com/@/docs',
      'HTTP 302 redirect to https://login.example.com/',
    ],
  ])('%s', async (_name, url, faults, why) => {
    const run = await cli('nowak-test', ['--base-url', url(sandbox), '--tenant', 'rowery-nowak'], faults);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`NOT API v1: GET /docs without a key -> ${why}`);
    expect(sandbox.requests().map((r) => `${r.method} ${r.keyAlias ?? '-'}`)).toEqual(['GET -']);
  });

  it('--emit monitor-config prints no fragment', async () => {
    const run = await cli(undefined, ['--base-url', `${sandbox.origin}/v2/api/v1`, '--emit', 'monitor-config'], '', true);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'repairmon discover: no config emitted, the host does not answer as API v1: GET /docs without a key -> HTTP 404 not_found',
    );
  });
});

describe('secrets', () => {
  it('no key value in any stdout or stderr above', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(12);
    const keys = sandbox.keys.map((k) => k.key);
    for (const { alias, run } of outputs) {
      for (const key of keys) {
        expect(run.stdout.includes(key), `${alias} stdout`).toBe(false);
        expect(run.stderr.includes(key), `${alias} stderr`).toBe(false);
      }
    }
  });
});
