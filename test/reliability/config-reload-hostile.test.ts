/**
 * Hostile YAML against the config's three doors: `check-config`, `POST /-/reload` and SIGHUP
 * (what the systemd unit's ExecReload sends). An anchor that is never defined, an alias bomb
 * (billion laughs), a self-referencing anchor or a deep nest is a config problem with its line and column:
 * exit 2 without a stack trace, a 400 answer, the old config probing on, the reload gauge at 0.
 * Collections nested thousands deep are refused before the library's recursion sees them. A
 * plain config with more aliases than the yaml library's default cap (100) loads. And reloads
 * are serialised: however many run at once, exactly one scheduler is left running.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import cron from 'node-cron';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.js';
import { loadConfigFile } from '../../monitor/config/load.js';
import { createMonitor } from '../../monitor/service.js';
import { startSandbox } from '../../sandbox/index.js';
import { runMain } from '../helpers/fake-io.js';
import { sandboxTargetYaml, serveChild, tempDirs } from './helpers.js';
import { childEnv, closedPort, spawnCli } from '../helpers/rig.js';

const workDir = tempDirs('repairmon-hostile-');

/** A target whose cron never fires during a test: only its shape matters. */
function idleTarget(name: string, baseUrl: string, keys: readonly string[]): string {
  return [`  - name: ${name}`, `    baseUrl: ${baseUrl}`, '    schedule: "0 0 1 1 *"', '    canaries: false', '    keys:', ...keys].join(
    '\n',
  );
}

/** 119 platform keys sharing one anchored tenant list: a plain config with 118 aliases. */
function manyAliases(baseUrl: string): string {
  const keys = Array.from({ length: 119 }, (_, i) =>
    i === 0
      ? '      - { alias: k0, kind: platform, tenants: &t [rowery-nowak, serwis-kowalski], secret: "${NOWAK_KEY}" }'
      : `      - { alias: k${i}, kind: platform, tenants: *t, secret: "\${NOWAK_KEY}" }`,
  );
  return idleTarget('many', baseUrl, keys);
}

/** Ten levels of ten: 10^10 values once expanded, a few hundred bytes of text. */
const BOMB = [
  'a0: &a0 [x, x, x, x, x, x, x, x, x, x]',
  ...Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`),
  'targets: []',
  '',
].join('\n');

const UNDEFINED_ANCHOR = (baseUrl: string): string =>
  ['targets:', idleTarget('t', baseUrl, ['      - { alias: k, kind: platform, tenants: *nowhere, secret: "${NOWAK_KEY}" }']), ''].join(
    '\n',
  );

const SELF_REFERENCE = 'targets: &loop [*loop]\n';

const STACK_LINE = /^\s+at /m;

const KEY_ENV = { NOWAK_KEY: 'rs_test_abcdefghijklmnop1234' };

describe('check-config on hostile YAML', { timeout: 30_000 }, () => {
  it('the real CLI exits 2 for an undefined anchor and 0 for 118 aliases of one anchor, with no stack trace', async () => {
    const dir = workDir();
    const base = `http://127.0.0.1:${await closedPort()}/api/v1`;
    const files = { undefinedAnchor: UNDEFINED_ANCHOR(base), many: `targets:\n${manyAliases(base)}\n` };
    const runs = await Promise.all(
      Object.entries(files).map(async ([name, text]) => {
        const file = join(dir, `${name}.yaml`);
        writeFileSync(file, text);
        const child = spawnCli(['check-config', '--config', file], { env: childEnv(KEY_ENV) });
        const code = await child.exited;
        return [name, { file, code, stdout: child.stdout(), stderr: child.stderr() }] as const;
      }),
    );
    for (const [name, run] of runs) expect(run.stderr, name).not.toMatch(STACK_LINE);
    const got = Object.fromEntries(runs);
    expect(got.undefinedAnchor).toEqual({
      file: got.undefinedAnchor!.file,
      code: 2,
      stdout: '',
      stderr: `${got.undefinedAnchor!.file}: 1 problem(s):\n  line 7: alias *nowhere refers to no anchor &nowhere defined before it at line 7, column 46\n`,
    });
    expect(got.many).toMatchObject({ code: 0, stderr: '' });
  });

  it('an alias bomb and an alias inside its own anchor are problems (exit 2), not a hang or a throw', async () => {
    const dir = workDir();
    const check = async (text: string) => {
      const file = join(dir, 'hostile.yaml');
      writeFileSync(file, text);
      const run = await runMain(['check-config', '--config', file], KEY_ENV);
      return { ...run, stderr: run.stderr.replace(`${file}: `, '') };
    };
    expect(await check(BOMB)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        '1 problem(s):\n  (top level): the document expands to more than 1000000 values once its aliases are resolved (aliases of aliases multiply); write the shared parts out or alias them less deeply\n',
    });
    expect(await check(SELF_REFERENCE)).toEqual({
      code: 2,
      stdout: '',
      stderr: '1 problem(s):\n  line 1: alias *loop is inside its own anchor &loop (a cycle) at line 1, column 17\n',
    });
  });

  it('collections nested thousands deep are a problem, every time (the library would overflow its stack)', async () => {
    const dir = workDir();
    const file = join(dir, 'deep.yaml');
    writeFileSync(file, `targets: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    // Twice: after one overflow inside the yaml library, V8 could abort the process on the next parse.
    for (let i = 0; i < 2; i++) {
      const run = await runMain(['check-config', '--config', file], KEY_ENV);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`${file}: 1 problem(s):\n  line 1: collections nested more than 100 deep at line 1, column 109\n`);
    }
  });
});

describe('a hostile reload keeps the running config', { timeout: 60_000 }, () => {
  it('serve: SIGHUP with an undefined anchor and POST /-/reload with an alias bomb are refused; 118 aliases reload', async () => {
    const sandbox = await startSandbox();
    const dir = workDir();
    const file = join(dir, 'monitor.yaml');
    const idle = `http://127.0.0.1:${await closedPort()}/api/v1`;
    const probing = sandboxTargetYaml(sandbox.baseUrl, 'secret: "${NOWAK_KEY}"');
    writeFileSync(file, `targets:\n${probing}\n`);
    const {
      serve,
      url,
      metrics,
      clientsOk: okCount,
      until,
    } = await serveChild(file, childEnv({ NOWAK_KEY: sandbox.key('nowak-test').key }));
    try {
      await until(async () => (await okCount()) >= 1);

      writeFileSync(file, UNDEFINED_ANCHOR(idle));
      serve.child.kill('SIGHUP');
      await until(async () => serve.stderr().includes('config reload failed; keeping the running config'));
      expect(serve.child.exitCode).toBeNull();
      expect(serve.stderr()).toContain('alias *nowhere refers to no anchor &nowhere defined before it at line 7, column 46');
      expect(await metrics()).toMatch(/^repairmon_config_last_reload_successful 0$/m);
      const seen = await okCount();
      await until(async () => (await okCount()) > seen);

      writeFileSync(file, BOMB);
      const refused = await fetch(`${url}/-/reload`, { method: 'POST' });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { ok: boolean; issues: { path: string; message: string }[] };
      expect(body.ok).toBe(false);
      expect(body.issues.map((i) => i.message).join('\n')).toContain(
        'the document expands to more than 1000000 values once its aliases are resolved',
      );
      expect(await metrics()).toMatch(/^repairmon_config_last_reload_successful 0$/m);
      const after = await okCount();
      await until(async () => (await okCount()) > after);

      writeFileSync(file, `targets:\n${probing}\n${manyAliases(idle)}\n`);
      const accepted = await fetch(`${url}/-/reload`, { method: 'POST' });
      expect(await accepted.json()).toMatchObject({ ok: true });
      expect(await metrics()).toMatch(/^repairmon_config_last_reload_successful 1$/m);
      expect(serve.stderr()).not.toMatch(STACK_LINE);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
      await sandbox.close();
    }
    expect(await serve.exited).toBe(0);
  });
});

describe('concurrent reloads', () => {
  it('leave exactly one running scheduler, and none after stop', async () => {
    const dir = workDir();
    const file = join(dir, 'monitor.yaml');
    const base = `http://127.0.0.1:${await closedPort()}/api/v1`;
    writeFileSync(
      file,
      `targets:\n${idleTarget('solo', base, ['      - { alias: k, kind: tenant, tenant: rowery-nowak, secret: "${NOWAK_KEY}" }'])}\n`,
    );
    const env = KEY_ENV;
    const first = loadConfigFile(file, env);
    if (!first.ok) throw new Error(JSON.stringify(first.issues));
    const live = () => [...cron.getTasks().values()].filter((t) => t.name === 'repairmon:solo' && t.getStatus() !== 'destroyed').length;
    const monitor = createMonitor(first.config, { logger: createLogger({ level: 'silent' }), load: () => loadConfigFile(file, env) });
    await monitor.start();
    try {
      expect(live()).toBe(1);
      const results = await Promise.all(Array.from({ length: 8 }, () => monitor.reload()));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(live()).toBe(1);
    } finally {
      await monitor.stop();
    }
    expect(live()).toBe(0);
  });
});
