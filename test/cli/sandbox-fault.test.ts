/**
 * `repairmon sandbox fault SPEC --url BASE_URL` / `--clear` against a running `repairmon sandbox`
 * (in-process) and a running `repairmon demo` (the real binary, what `npm start` runs): faults
 * without a restart, the token from the environment, never printed whole; bad input exits 2
 * with the faults in force unchanged; `--help` explains every kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { authHeader } from '../../api/contract/index.js';
import { main } from '../../cli/index.js';
import { FAULT_KINDS, parseFaultSpec } from '../../sandbox/faults/parse.js';
import { childEnv, closedPort, spawnCli, waitForOutput } from '../helpers/rig.js';
import { type FakeIo, fakeIo, runMain } from '../helpers/fake-io.js';

interface Line {
  baseUrl: string;
  keys: { alias: string; key: string }[];
  control: { url: string; token: string };
}

let sandbox: { io: FakeIo; exit: Promise<number>; line: Line };

beforeAll(async () => {
  const io = fakeIo();
  const exit = main(['sandbox', '--port', '0', '--json', '--log-level', 'info'], io);
  sandbox = { io, exit, line: JSON.parse(await io.firstLine()) as Line };
});
afterAll(async () => {
  sandbox.io.abort();
  expect(await sandbox.exit).toBe(0);
});

async function fault(
  args: string[],
  env: Record<string, string> = { REPAIRMON_SANDBOX_TOKEN: sandbox.line.control.token },
): Promise<{ code: number; out: string; err: string }> {
  const { code, stdout, stderr } = await runMain(['sandbox', 'fault', ...args], env);
  return { code, out: stdout, err: stderr };
}

async function statusOf(baseUrl: string, key: string, path = '/tenants/rowery-nowak/clients'): Promise<number> {
  const h = authHeader('bearer', key);
  const res = await request(`${baseUrl}${path}`, { headers: { [h.name]: h.value } });
  await res.body.dump();
  return res.statusCode;
}

const nowak = (): string => sandbox.line.keys.find((k) => k.alias === 'nowak-test')!.key;

describe('repairmon sandbox fault', () => {
  it('takes, changes and clears faults on the running sandbox: exit 0, in effect on the next request, the same keys', async () => {
    const { baseUrl } = sandbox.line;
    expect(await fault(['status:503@/tenants/*/clients', '--url', baseUrl])).toEqual({
      code: 0,
      out: 'faults now: status:503@/tenants/*/clients\n',
      err: '',
    });
    expect(await statusOf(baseUrl, nowak())).toBe(503);
    expect((await fault(['rate-limit-storm:1', '--url', baseUrl])).code).toBe(0);
    expect(await statusOf(baseUrl, nowak())).toBe(429);
    expect(await fault(['--clear', '--url', baseUrl])).toEqual({ code: 0, out: 'faults cleared\n', err: '' });
    expect(await statusOf(baseUrl, nowak())).toBe(200);
  });

  it.each([
    [['teleport:1'], /SPEC: unknown fault kind "teleport" \(known: latency, .*\); nothing was sent/],
    [['status:404@/tenants/*/clients'], /SPEC: fault "status" needs one of 500, 502, 503, got "404"/],
    [['latency:5%2'], /SPEC: probability "2" in fault rule "latency:5%2" must be a number from 0 to 1/],
    [['status:503', 'reset'], /give one SPEC \(quote it/],
    [['status:503', '--clear'], /give either SPEC or --clear/],
    [[], /give either SPEC or --clear/],
    [['status:503', '--url', 'http://api.example.com/api/v1'], /--url must name this machine .* got "api\.example\.com"/],
    [['status:503', '--url', 'ftp://127.0.0.1/x'], /--url "ftp:\/\/127\.0\.0\.1\/x" is not an http\(s\) URL/],
  ])('%j exits 2 naming the part at fault; the faults in force are unchanged', async (args, message) => {
    const { baseUrl } = sandbox.line;
    expect((await fault(['status:502@/tenants/*/clients', '--url', baseUrl])).code).toBe(0);
    const run = await fault(args.includes('--url') ? args : [...args, '--url', baseUrl]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(message);
    expect(await statusOf(baseUrl, nowak())).toBe(502);
    expect((await fault(['--clear', '--url', baseUrl])).code).toBe(0);
  });

  it('the token: from REPAIRMON_SANDBOX_TOKEN or --token; missing or wrong exits 2, showing at most its last 4 characters', async () => {
    const { baseUrl, control } = sandbox.line;
    expect(await fault(['reset', '--url', baseUrl], {})).toMatchObject({
      code: 2,
      err: expect.stringContaining('set REPAIRMON_SANDBOX_TOKEN (or --token)'),
    });
    const wrong = 'x'.repeat(28) + 'abcd';
    const refused = await fault(['reset', '--url', baseUrl], { REPAIRMON_SANDBOX_TOKEN: wrong });
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('HTTP 401 unauthorized');
    expect(refused.err).toContain('…abcd');
    expect(refused.err).not.toContain(wrong);
    expect(await statusOf(baseUrl, nowak())).toBe(200);
    // A token starting with "-" would be refused as the value of --token (1 in 64 base64url tokens did).
    expect(control.token).toMatch(/^[0-9a-f]{48}$/);
    expect((await fault(['--clear', '--url', baseUrl, '--token', control.token], {})).code).toBe(0);
    // Its log names the change, never the token.
    await waitForOutput(() => sandbox.io.stderrText(), /faults changed/);
    expect(sandbox.io.stderrText()).not.toContain(control.token);
  });

  it('exits 1 when no sandbox answers at the URL', async () => {
    const port = await closedPort();
    const run = await fault(['reset', '--url', `http://127.0.0.1:${port}/api/v1`]);
    expect(run.code).toBe(1);
    expect(run.err).toBe(`repairmon sandbox fault: no sandbox answers at http://127.0.0.1:${port} (ECONNREFUSED)\n`);
  });

  it('`repairmon sandbox fault --help` lists every fault kind with its meaning and an example that parses', async () => {
    const io = fakeIo();
    expect(await main(['sandbox', 'fault', '--help'], io)).toBe(0);
    const help = io.stdoutText();
    expect(help).toContain('Usage: repairmon sandbox fault [SPEC] [flags]');
    for (const kind of FAULT_KINDS) {
      // A kind's text may wrap onto the next line.
      const at = help.indexOf(`\n  ${kind} `);
      expect(at, kind).toBeGreaterThan(0);
      const example = /e\.g\.\s+(\S+)/.exec(help.slice(at))?.[1];
      expect(example, kind).toBeDefined();
      const parsed = parseFaultSpec(example!);
      expect(parsed.ok && parsed.rules[0]?.action.kind, example).toBe(kind);
    }
  });

  it('the human output prints the ready fault line, the token in the variable (never as --token)', async () => {
    const io = fakeIo();
    const exit = main(['sandbox', '--port', '0'], io);
    await waitForOutput(() => io.stdoutText(), /Press Ctrl\+C/);
    const line = /REPAIRMON_SANDBOX_TOKEN=(\S+) repairmon sandbox fault 'status:503@\/tenants\/\*\/bikes' --url (\S+)/.exec(
      io.stdoutText(),
    );
    expect(line).not.toBeNull();
    expect(io.stdoutText()).not.toContain('--token');
    const run = await fault(['status:503@/tenants/*/bikes', '--url', line![2]!], { REPAIRMON_SANDBOX_TOKEN: line![1]! });
    expect(run.code).toBe(0);
    io.abort();
    expect(await exit).toBe(0);
  });
});

describe('repairmon demo (npm start) takes faults while it runs', () => {
  it('the fault line it prints works against its embedded sandbox', async () => {
    const demo = spawnCli(['demo', '--listen', '127.0.0.1:0']);
    try {
      const [, token, baseUrl] = await waitForOutput(
        demo.stdout,
        /REPAIRMON_SANDBOX_TOKEN=(\S+) repairmon sandbox fault \S+ --url (\S+)/,
        30_000,
      );
      const run = spawnCli(['sandbox', 'fault', 'rate-limit-storm:7@/docs', '--url', baseUrl!], {
        env: childEnv({ REPAIRMON_SANDBOX_TOKEN: token! }),
      });
      expect(await run.exited).toBe(0);
      expect(run.stdout()).toBe('faults now: rate-limit-storm:7@/docs\n');
      // The token travelled in the environment, not in any argv.
      for (const argv of run.cmdlines) expect(argv).not.toContain(token!);
      const docs = await request(`${baseUrl}/docs`);
      expect([docs.statusCode, docs.headers['retry-after']]).toEqual([429, '7']);
      await docs.body.dump();
    } finally {
      demo.child.kill('SIGINT');
      await demo.exited;
    }
  }, 60_000);
});
