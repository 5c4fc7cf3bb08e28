/**
 * What `repairmon sandbox` writes on stderr per request: in a terminal's (human) mode one line
 * with method, path, status and ms, never a key and never pino JSON; none with `--quiet`; pino
 * JSON with `--json` or `--log-format json`.
 */
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { authHeader } from '../../api/contract/index.js';
import { main } from '../../cli/index.js';
import { fakeIo } from '../helpers/fake-io.js';

/** Starts the sandbox with `args`, sends one good and one refused request, stops it; its stderr and the key. */
async function twoRequests(args: string[]): Promise<{ stderr: string; key: string }> {
  const io = fakeIo();
  const exit = main(['sandbox', '--port', '0', ...args], io);
  await io.firstLine();
  const out = io.stdoutText();
  const json = args.includes('--json');
  const baseUrl = json ? (JSON.parse(out) as { baseUrl: string }).baseUrl : /listening on (\S+)/.exec(out)?.[1];
  const key = json
    ? (JSON.parse(out) as { keys: { alias: string; key: string }[] }).keys.find((k) => k.alias === 'nowak-test')!.key
    : (/export REPAIR_API_TEST_KEY=(\S+) +# nowak-test/.exec(out)?.[1] ?? '');
  const h = authHeader('bearer', key);
  for (const path of ['/tenants/rowery-nowak/clients', '/tenants/serwis-kowalski/bikes']) {
    const res = await request(`${baseUrl}${path}`, { headers: { [h.name]: h.value } });
    await res.body.dump();
  }
  io.abort();
  expect(await exit).toBe(0);
  return { stderr: io.stderrText(), key };
}

describe('repairmon sandbox request lines', () => {
  it('human (the default): one line per request with method, path, status (and code) and ms; no JSON, no key', async () => {
    const { stderr, key } = await twoRequests([]);
    const lines = stderr.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^GET \/api\/v1\/tenants\/rowery-nowak\/clients 200 \d+ ms$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^GET \/api\/v1\/tenants\/serwis-kowalski\/bikes 403 tenant_key_tenant_mismatch \d+ ms$/),
    );
    expect(stderr).not.toContain('{');
    expect(stderr).not.toContain(key);
  });

  it('--quiet: no request line at all', async () => {
    const { stderr } = await twoRequests(['--quiet']);
    expect(stderr).not.toContain('/tenants/');
  });

  it.each([[['--json']], [['--log-format', 'json']]])('%j: pino JSON lines, the key scrubbed', async (args) => {
    const { stderr, key } = await twoRequests(args);
    const requests = stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; status?: number; ms?: number })
      .filter((r) => r.msg === 'request');
    expect(requests.map((r) => r.status)).toEqual([200, 403]);
    expect(typeof requests[0]?.ms).toBe('number');
    expect(stderr).not.toContain(key);
  });

  it('--quiet with --log-level, or an unknown --log-format, exits 2 naming the flag', async () => {
    for (const [args, message] of [
      [['--quiet', '--log-level', 'debug'], /--quiet and --log-level contradict each other/],
      [['--log-format', 'xml'], /--log-format must be one of human, json, got "xml"/],
    ] as const) {
      const io = fakeIo();
      expect(await main(['sandbox', ...args], io)).toBe(2);
      expect(io.stderrText()).toMatch(message);
    }
  });
});
