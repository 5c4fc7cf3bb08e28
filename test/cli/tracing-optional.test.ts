/**
 * OpenTelemetry is an optional peer: an install without it runs the monitor, and asking for
 * spans (`OTEL_EXPORTER_OTLP_ENDPOINT`) without it stops `repairmon serve` at once with the
 * `npm install` line that fixes it, exit 2. The install is this checkout's `bin`, `dist` and
 * package.json copied beside a node_modules that links every package but `@opentelemetry/*`
 * (a copy: Node resolves a symlinked file from its real place, which would find them).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt, runCli, spawnCli, waitForOutput } from '../helpers/rig.js';

const home = mkdtempSync(join(tmpdir(), 'repairmon-no-otel-'));
const CONFIG = `targets:
  - name: test
    baseUrl: http://127.0.0.1:1/api/v1
    schedule: '0 0 1 1 *'
    keys:
      - alias: nowak-test
        kind: tenant
        tenant: rowery-nowak
        secret: \${REPAIRMON_TEST_KEY}
`;

beforeAll(() => {
  ensureBuilt();
  cpSync(join(ROOT, 'bin'), join(home, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(home, 'dist'), { recursive: true, filter: (src) => !src.startsWith(join(ROOT, 'dist', 'test')) });
  cpSync(join(ROOT, 'package.json'), join(home, 'package.json'));
  mkdirSync(join(home, 'node_modules'));
  for (const entry of readdirSync(join(ROOT, 'node_modules')))
    if (entry !== '@opentelemetry') symlinkSync(join(ROOT, 'node_modules', entry), join(home, 'node_modules', entry));
  writeFileSync(join(home, 'monitor.yaml'), CONFIG);
}, 120_000);

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('OpenTelemetry optional', () => {
  const serve = (env: Record<string, string>) =>
    runCli(['serve', '--config', 'monitor.yaml', '--listen', '127.0.0.1:0'], {
      bin: join(home, 'bin', 'repairmon.js'),
      cwd: home,
      env: { REPAIRMON_TEST_KEY: 'rs_test_not_a_real_key_0000', ...env },
      timeoutMs: 20_000,
    });

  it('the package declares them optional peers: a plain install does not carry them', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    const otel = Object.keys(pkg['peerDependencies'] ?? {}).filter((n) => n.startsWith('@opentelemetry/'));
    expect(otel).toHaveLength(4);
    for (const name of otel) {
      expect(pkg['dependencies']?.[name]).toBeUndefined();
      expect(pkg['peerDependenciesMeta']?.[name]).toEqual({ optional: true });
    }
  });

  it('OTEL_EXPORTER_OTLP_ENDPOINT set without them: serve refuses at once, naming the npm install line, exit 2', async () => {
    const run = await serve({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /^repairmon serve: OTEL_EXPORTER_OTLP_ENDPOINT is set, but the OpenTelemetry packages .* run npm install @opentelemetry\/api@1\.9\.1 @opentelemetry\/exporter-trace-otlp-http@\S+ @opentelemetry\/resources@\S+ @opentelemetry\/sdk-trace-base@\S+ where generator-repair-service is installed, or unset OTEL_EXPORTER_OTLP_ENDPOINT$/m,
    );
  });

  it('without the variable, the same install serves (the SDK is never loaded)', async () => {
    const serving = spawnCli(['serve', '--config', 'monitor.yaml', '--listen', '127.0.0.1:0'], {
      bin: join(home, 'bin', 'repairmon.js'),
      cwd: home,
      env: { REPAIRMON_TEST_KEY: 'rs_test_not_a_real_key_0000' },
    });
    try {
      await waitForOutput(serving.stdout, /^repairmon serve: status http:\S+/m, 30_000);
    } finally {
      serving.child.kill('SIGTERM');
    }
    expect(await serving.exited).toBe(0);
  });
});
