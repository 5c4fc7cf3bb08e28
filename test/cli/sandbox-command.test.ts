/** `repairmon sandbox` in-process: flags, the --json line, human output, clean close on the signal. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { AUTH_SCHEMES, authHeader } from '../../api/contract/index.js';
import { main } from '../../cli/index.js';
import { fakeIo } from '../helpers/fake-io.js';
import { PRESET_TABLE } from '../helpers/dialect-presets.js';

interface JsonLine {
  baseUrl: string;
  keys: { alias: string; kind: string; tenant: string | null; environment: string; scopes: string[]; key: string }[];
  dialect: Record<string, unknown>;
}

const planted = join(mkdtempSync(join(tmpdir(), 'sandbox-command-')), 'watch');
symlinkSync(tmpdir(), planted);

/** The sandbox command in this process; its summary is one write, so whole once its first line is in. */
async function running(args: string[]) {
  const io = fakeIo();
  const exit = main(['sandbox', '--port', '0', '--log-level', 'info', ...args], io);
  const line = await Promise.race([io.firstLine(), exit.then((code) => `exited ${code}: ${io.stderrText()}`)]);
  return { io, exit, line };
}

describe('repairmon sandbox', () => {
  it('--json prints exactly one JSON line; the keys work in both header forms; the signal closes it with 0', async () => {
    const { io, exit, line } = await running(['--json']);
    const parsed = JSON.parse(line) as JsonLine;
    expect(parsed.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(Object.keys(parsed.keys[0] ?? {})).toEqual(['alias', 'kind', 'tenant', 'environment', 'scopes', 'key']);
    const key = parsed.keys.find((k) => k.alias === 'nowak-test');
    expect(key).toBeDefined();
    for (const scheme of AUTH_SCHEMES) {
      const h = authHeader(scheme, key!.key);
      const res = await request(`${parsed.baseUrl}/tenants/rowery-nowak/clients`, { headers: { [h.name]: h.value } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('600');
      await res.body.dump();
    }
    io.abort();
    expect(await exit).toBe(0);
    expect(io.stdoutText()).toBe(`${line}\n`);
    // Logs went to stderr, with every key value scrubbed.
    expect(io.stderrText()).toContain('sandbox listening');
    expect(io.stderrText()).toContain('"dialect":"reference"');
    for (const k of parsed.keys) expect(io.stderrText()).not.toContain(k.key);
    expect(parsed.dialect).toMatchObject({ name: 'reference', preset: 'reference', slug: 'kebab', platformPaths: ['tenants', 'keys'] });
  });

  it('--dialect reaches the sandbox: the JSON line carries the parsed dialect, the log line names it, the answers follow it', async () => {
    const { io, exit, line } = await running(['--json', '--dialect', 'snake-public,rate-limit-headers=x-ratelimit-delta']);
    const { baseUrl, keys, dialect } = JSON.parse(line) as JsonLine;
    expect(dialect).toEqual({
      name: 'snake-public,rate-limit-headers=x-ratelimit-delta',
      preset: 'snake-public',
      ...PRESET_TABLE['snake-public'],
      rateLimitHeaders: 'x-ratelimit-delta',
    });
    expect(keys.find((k) => k.alias === 'nowak-test')?.tenant).toBe('rowery_nowak');
    const h = authHeader('x-api-key', keys.find((k) => k.alias === 'nowak-test')!.key);
    const clients = await request(`${baseUrl}/tenants/rowery_nowak/clients`, { headers: { [h.name]: h.value } });
    expect([clients.statusCode, clients.headers['x-ratelimit-limit']]).toEqual([200, '600']);
    await clients.body.dump();
    const missing = await request(`${baseUrl}/tenants/rowery_nowak/clients`);
    expect([missing.statusCode, ((await missing.body.json()) as { error: { code: string } }).error.code]).toEqual([403, 'missing_api_key']);
    io.abort();
    expect(await exit).toBe(0);
    expect(io.stderrText()).toContain('"dialect":"snake-public,rate-limit-headers=x-ratelimit-delta"');
  });

  it('human output names the dialect and what a revoked key gets in it', async () => {
    const { io, exit } = await running(['--dialect', 'gateway']);
    io.abort();
    expect(await exit).toBe(0);
    expect(io.stdoutText()).toContain('Dialect: gateway');
    expect(io.stdoutText()).toContain('revoked: expect 403 unauthorized');
  });

  it('--help names the presets and points at the page with every dialect key and value', async () => {
    const io = fakeIo();
    expect(await main(['sandbox', '--help'], io)).toBe(0);
    const help = io.stdoutText();
    expect(help).toContain('--dialect NAME|k=v,...');
    expect(help).toContain('(default: reference;');
    for (const preset of ['reference', 'snake-public', 'strict-hiding', 'gateway', 'legacy', 'bare']) expect(help).toContain(preset);
    expect(help).toContain('docs/sandbox.md');
  });

  it('human output: base URL, the demo keys table and a curl example per auth form reading the env var', async () => {
    const { io, exit } = await running([]);
    io.abort();
    expect(await exit).toBe(0);
    const out = io.stdoutText();
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
    for (const alias of [
      'platform-test',
      'platform-prod',
      'nowak-test',
      'nowak-prod',
      'kowalski-test',
      'gdansk-test',
      'nowak-nologs-test',
      'nowak-revoked-test',
    ]) {
      expect(out).toContain(alias);
    }
    // The generated project's own variable names, so the line can be pasted as is.
    expect(out).toMatch(/export REPAIR_API_TEST_KEY=rs_test_\S+ +# nowak-test/);
    expect(out).toContain('one generated with --env-prefix PREFIX reads PREFIX_TEST_KEY');
    expect(out).toContain('curl -H "Authorization: Bearer $REPAIR_API_TEST_KEY"');
    expect(out).toContain('curl -H "x-api-key: $REPAIR_API_TEST_KEY"');
    expect(out).not.toContain('CA certificate');
  });

  it.each([
    [['--faults', 'teleport:1'], /--faults: unknown fault kind "teleport"/],
    [['--faults', 'status:404'], /--faults: fault "status" needs one of 500, 502, 503/],
    [['--rate-limit', '5/xyz'], /--rate-limit: window "xyz"/],
    [['--port', '70000'], /--port must be between 0 and 65535/],
    [['--port', 'abc'], /--port must be a whole number/],
    [['--log-level', 'loud'], /--log-level must be one of/],
    [['--data', '/nonexistent/sandbox.yaml'], /--data: \/nonexistent\/sandbox\.yaml: cannot read/],
    [['--json=yes'], /--json/],
    [['--page-size', '0'], /--page-size must be between 1 and 10000, got 0/],
    [['--page-size', 'two'], /--page-size must be a whole number, got "two"/],
    [['--tls-ca-out', '/tmp/ca.pem'], /--tls-ca-out needs --tls/],
    [['--monitor-out', 'package.json'], /--monitor-out: package\.json is a file; give a folder \(nothing was written\)/],
    [['--monitor-out', planted], /--monitor-out: .*watch is a symbolic link; give a folder of your own \(nothing was written\)/],
    [
      ['--tls', '--tls-ca-out', 'package.json'],
      /--tls-ca-out: package\.json exists and is not a CA certificate; .*\(nothing was written\)/,
    ],
    [
      ['--tls', '--tls-ca-out', '/nonexistent/dir/ca.pem'],
      /--tls-ca-out: cannot write the CA certificate to \/nonexistent\/dir\/ca\.pem \(ENOENT\)/,
    ],
    [
      ['--dialect', 'teleport'],
      /--dialect: unknown preset "teleport"; allowed presets: reference, snake-public, strict-hiding, gateway, legacy, bare/,
    ],
    [['--dialect', 'reference,colour=red'], /--dialect: unknown key "colour" in "colour=red"; allowed keys: slug, index,/],
    [
      ['--dialect', 'gateway,scope-refusal=hide'],
      /--dialect: scope-refusal: value "hide" is not allowed; allowed values: insufficient_scope, forbidden, not_found/,
    ],
    [
      ['--dialect', 'slug=snake', '--data', 'test/sandbox/fixtures/data/valid.yaml'],
      /--data: .*valid\.yaml: .*tenants\[0\]\.slug: tenant slug "rowery-testowe" must be lowercase letters, digits and single underscores/s,
    ],
  ])('%j exits 2 naming the flag and starts nothing', async (args, message) => {
    const io = fakeIo();
    expect(await main(['sandbox', ...args], io)).toBe(2);
    expect(io.stderrText()).toMatch(message);
    expect(io.stdoutText()).toBe('');
  });

  it('--tls --page-size: https, the CA file in the JSON line and the production rehearsal lines; pages with Link', async () => {
    const json = await running(['--json', '--tls', '--page-size', '2']);
    const parsed = JSON.parse(json.line) as JsonLine & { caFile: string };
    expect(parsed.baseUrl).toMatch(/^https:\/\//);
    const agent = new Agent({ connect: { ca: readFileSync(parsed.caFile) } });
    const h = authHeader('bearer', parsed.keys.find((k) => k.alias === 'nowak-test')!.key);
    const res = await request(`${parsed.baseUrl}/tenants/rowery-nowak/clients`, { headers: { [h.name]: h.value }, dispatcher: agent });
    expect(res.headers['link']).toMatch(/\?page=2>; rel="next"$/);
    await res.body.dump();
    await agent.close();
    json.io.abort();
    expect(await json.exit).toBe(0);
    const human = await running(['--tls']);
    human.io.abort();
    expect(await human.exit).toBe(0);
    const out = human.io.stdoutText();
    expect(out).toMatch(/CA certificate \(trust it for this https sandbox\): \S+ca\.pem/);
    expect(out).toMatch(
      /export REPAIR_API_ENV=production REPAIR_API_PRODUCTION_BASE_URL=https:\/\/127\.0\.0\.1:\d+\/api\/v1 REPAIR_API_CA_FILE=\S+/,
    );
    expect(out).toMatch(/export REPAIR_API_PRODUCTION_KEY=rs_live_\S+ +# nowak-prod/);
    expect(out).toMatch(/curl --cacert \S+ -H "x-api-key: \$REPAIR_API_TEST_KEY" https:/);
  });

  it('--faults and --rate-limit reach the sandbox', async () => {
    const { io, exit, line } = await running(['--json', '--faults', 'status:503@/docs', '--rate-limit', 'off']);
    const { baseUrl, keys } = JSON.parse(line) as JsonLine;
    const docs = await request(`${baseUrl}/docs`);
    expect(docs.statusCode).toBe(503);
    await docs.body.dump();
    const h = authHeader('bearer', keys[0]!.key);
    const index = await request(`${baseUrl}/`, { headers: { [h.name]: h.value } });
    expect(index.statusCode).toBe(200);
    expect(index.headers['ratelimit-limit']).toBeUndefined();
    await index.body.dump();
    io.abort();
    expect(await exit).toBe(0);
  });

  it('an already aborted signal still closes cleanly', async () => {
    const io = fakeIo();
    io.abort();
    expect(await main(['sandbox', '--port', '0', '--json', '--log-level', 'silent'], io)).toBe(0);
  });
});

describe('repairmon sandbox listen errors', () => {
  it('a host that is not on this machine exits 2 naming --host', async () => {
    const io = fakeIo();
    expect(await main(['sandbox', '--host', '192.0.2.1', '--port', '0', '--log-level', 'silent'], io)).toBe(2);
    expect(io.stderrText()).toMatch(/--host "192\.0\.2\.1"/);
  });

  it('a busy port exits 1 naming the port', async () => {
    const first = await running(['--json']);
    const port = new URL((JSON.parse(first.line) as JsonLine).baseUrl).port;
    const io = fakeIo();
    expect(await main(['sandbox', '--port', port, '--log-level', 'silent'], io)).toBe(1);
    expect(io.stderrText()).toContain(`--port ${port} (EADDRINUSE)`);
    first.io.abort();
    expect(await first.exit).toBe(0);
  });
});
