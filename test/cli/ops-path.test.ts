/**
 * The ops path with only the installed package (`npm pack` of this checkout, unpacked; its
 * dependencies linked): from nothing to `serve` watching a sandbox, then a fault on the status
 * page and in /metrics, in the three commands the README gives (with port 0 where they name none):
 *   repairmon sandbox --monitor-out watch
 *   repairmon serve --config <the path it printed>
 *   REPAIRMON_SANDBOX_TOKEN=<printed> repairmon sandbox fault 'status:503@/tenants/*\/clients' --url <printed>
 * Real processes, the built CLI; check-config accepts the config; the files the docs point a user
 * at (the example config) are in the package, the monitor's sources are not.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type Watched, childEnv, spawnCli, waitFor, waitForOutput } from '../helpers/rig.js';

const home = mkdtempSync(join(tmpdir(), 'repairmon-ops-path-'));
const pkg = join(home, 'package');
const running: Watched[] = [];
let packed: string[] = [];

function repairmon(args: readonly string[], env: Record<string, string> = {}): Watched {
  const child = spawnCli(args, { bin: join(pkg, 'bin', 'repairmon.js'), cwd: home, env: childEnv(env) });
  running.push(child);
  return child;
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/cli/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  const [report] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', home], { cwd: ROOT, encoding: 'utf8' }),
  ) as [{ filename: string; files: { path: string }[] }];
  packed = report.files.map((f) => f.path);
  execFileSync('tar', ['xzf', join(home, report.filename), '-C', home]);
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
}, 120_000);

afterAll(async () => {
  for (const child of running) if (child.child.exitCode === null) child.child.kill('SIGINT');
  await Promise.all(running.map((c) => c.exited));
  rmSync(home, { recursive: true, force: true });
});

describe('the ops path from the installed package', () => {
  it('ships the example config the docs open, not the monitor sources', () => {
    expect(packed).toContain('monitor/examples/monitor.yaml');
    expect(packed.filter((p) => p.startsWith('monitor/') && !p.startsWith('monitor/examples/'))).toEqual([]);
  });

  it('ships no benchmark, though the test build (tsconfig.test.json) compiled one into dist/bench', () => {
    expect(existsSync(join(ROOT, 'dist', 'bench', 'run-all.js'))).toBe(true);
    expect(packed.filter((p) => p.includes('bench/'))).toEqual([]);
  });

  it('three commands: a sandbox writing a ready config, serve on it, a fault seen on / and in /metrics', async () => {
    const sandbox = repairmon(['sandbox', '--monitor-out', 'watch', '--port', '0']);
    const config = (await waitForOutput(sandbox.stdout, /repairmon serve --config (\S+)/, 30_000))[1]!;
    const [, token, baseUrl] = await waitForOutput(sandbox.stdout, /REPAIRMON_SANDBOX_TOKEN=(\S+) repairmon sandbox fault \S+ --url (\S+)/);
    expect(config).toBe(join(home, 'watch', 'monitor.yaml'));
    expect(statSync(join(home, 'watch')).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'watch', 'nowak-test.key')).mode & 0o777).toBe(0o600);

    const check = repairmon(['check-config', '--config', config]);
    expect(await check.exited, check.stderr()).toBe(0);
    expect(check.stdout()).toMatch(/^config OK: 1 target\(s\)/);
    expect(check.stdout()).not.toContain('warning');

    const serve = repairmon(['serve', '--config', config, '--listen', '127.0.0.1:0']);
    const status = (await waitForOutput(serve.stdout, /status (http:\/\/127\.0\.0\.1:\d+)\//, 30_000))[1]!;
    const metrics = async (): Promise<string> => (await fetch(`${status}/metrics`)).text();
    const clientsRead = /^repairmon_probe_success\{[^}]*endpoint="clients"[^}]*key_alias="nowak-test"[^}]*check="read"\} (\d)$/m;
    const clientsSuccess = async (): Promise<string | undefined> => clientsRead.exec(await metrics())?.[1];
    // A round every 10 s: up to 30 s for the probe to read `want`.
    const until = (want: string): Promise<unknown> =>
      waitFor(async () => (await clientsSuccess()) === want, {
        what: () => `the clients probe to read ${want}`,
        timeoutMs: 30_000,
        everyMs: 200,
      });
    await until('1');

    const fault = repairmon(['sandbox', 'fault', 'status:503@/tenants/*/clients', '--url', baseUrl!], { REPAIRMON_SANDBOX_TOKEN: token! });
    expect(await fault.exited, fault.stderr()).toBe(0);
    await until('0');
    const page = await (await fetch(`${status}/`)).text();
    expect(page).toMatch(/title="server_error: HTTP 503 internal_error" data-probe="sandbox\/nowak-test\/rowery-nowak\/clients\/read"/);
  }, 120_000);
});
