/**
 * A key pasted where its *reference* belongs (`secretFile:`, `${...}`, `tokenFile:`, a CA path)
 * or into a field whose errors quote it (cron, expect) or that travels into every log line (alias,
 * tenant slug: refused when it holds a key prefix) must not be printed
 * back: not by `check-config`, not in `serve`'s reload log, not in the `/-/reload` answer. The
 * canaries are random per run: a `rs_test_` key, a bare `openssl rand -hex 32` token and a
 * prefix-less random one, so the guard is not only a prefix match.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/index.js';
import { fakeIo } from '../helpers/fake-io.js';
import { makeCanary } from './helpers.js';
import { childEnv, closedPort, spawnCli, waitForOutput } from '../helpers/rig.js';

const KEY = makeCanary();
const HEX = randomBytes(32).toString('hex');
const RANDOM = `Zq7${randomBytes(30)
  .toString('base64')
  .replace(/[^A-Za-z0-9]/g, '')}`;
const CANARIES = [KEY, HEX, RANDOM];
const ENV = { NOWAK_KEY: 'rs_test_abcdefghijklmnop1234' };

const work = mkdtempSync(join(tmpdir(), 'repairmon-echo-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function leaked(text: string): string[] {
  return CANARIES.filter((c) => text.includes(c)).map((c) => `…${c.slice(-4)}`);
}

function target(baseUrl: string, lines: readonly string[]): string {
  return ['targets:', '  - name: t', `    baseUrl: ${baseUrl}`, '    schedule: "0 0 1 1 *"', '    canaries: false', ...lines, ''].join(
    '\n',
  );
}

/** Valid in shape: every secret is pasted where a reference belongs, found when resolving. */
const inReferences = (baseUrl: string): string =>
  [
    'http:',
    `  tokenFile: ${HEX}`,
    target(baseUrl.replace(/^http:/, 'https:'), [
      `    tls: { caFile: ${KEY} }`,
      '    keys:',
      `      - { alias: by-file, kind: tenant, tenant: rowery-nowak, secretFile: ${KEY} }`,
      `      - { alias: by-env, kind: tenant, tenant: rowery-nowak, secret: "\${${KEY}}" }`,
      `      - { alias: by-random-env, kind: tenant, tenant: rowery-nowak, secret: "\${${RANDOM}}" }`,
    ]),
  ].join('\n');

/** Invalid in shape: fields whose messages quote the value, plus a secretFile found by salvage. */
const inQuotedFields = (baseUrl: string): string =>
  target(baseUrl, [
    '    keys:',
    `      - { alias: pasted, kind: tenant, tenant: ${KEY}, secretFile: ${HEX}, expect: { clients: ${KEY} } }`,
    `      - { alias: ${KEY}, kind: tenant, tenant: rowery-nowak, secretFile: missing.key }`,
  ]).replace('schedule: "0 0 1 1 *"', `schedule: "${KEY}"`);

const good = (baseUrl: string): string =>
  target(baseUrl, ['    keys:', '      - { alias: nowak-test, kind: tenant, tenant: rowery-nowak, secret: "${NOWAK_KEY}" }']);

describe('values pasted where a reference belongs are never echoed', { timeout: 30_000 }, () => {
  it('check-config: names the field and shows at most the last 4 characters', async () => {
    const base = `http://127.0.0.1:${await closedPort()}/api/v1`;
    const files = [inReferences(base), inQuotedFields(base)].map((text, i) => {
      const file = join(work, `check-${i}.yaml`);
      writeFileSync(file, text);
      return file;
    });
    // The first through the real CLI process, the second in-process: the same printing code.
    const child = spawnCli(['check-config', '--config', files[0]!], { env: childEnv(ENV) });
    const io = { ...fakeIo(), env: ENV };
    const code = await main(['check-config', '--config', files[1]!], io);
    const runs = [
      { code: await child.exited, out: child.stdout() + child.stderr() },
      { code, out: io.stdoutText() + io.stderrText() },
    ];
    for (const run of runs) expect(run.code).toBe(2);
    expect(leaked(runs.map((r) => r.out).join('\n'))).toEqual([]);
    const refs = runs[0]!.out;
    expect(refs).toContain(
      `targets[0].keys[0].secretFile: key "by-file": cannot read secret file …${KEY.slice(-4)} (ENOENT; its path is not shown: it looks like it could be the secret itself`,
    );
    expect(refs).toContain(
      `targets[0].keys[1].secret: key "by-env": environment variable \${…${KEY.slice(-4)}} is not set (its name is not shown: it looks like it could be the secret itself`,
    );
    expect(refs).toContain(
      `targets[0].keys[2].secret: key "by-random-env": environment variable \${…${RANDOM.slice(-4)}} is not set (its name is not shown`,
    );
    expect(refs).toContain(`http.tokenFile: HTTP token: cannot read secret file …${HEX.slice(-4)} (ENOENT; its path is not shown`);
    expect(refs).toContain(`targets[0].tls.caFile: cannot read CA file …${KEY.slice(-4)} (ENOENT)`);
    const quoted = runs[1]!.out;
    for (const path of [
      'targets[0].schedule',
      'targets[0].keys[0].tenant',
      'targets[0].keys[0].expect.clients',
      'targets[0].keys[0].secretFile',
      'targets[0].keys[1].alias',
    ]) {
      expect(quoted).toContain(`  ${path}: `);
    }
  });

  it('serve: the reload log and the /-/reload answer show neither', async () => {
    const base = `http://127.0.0.1:${await closedPort()}/api/v1`;
    const file = join(work, 'serve.yaml');
    writeFileSync(file, good(base));
    const serve = spawnCli(['serve', '--config', file, '--listen', '127.0.0.1:0', '--log-level', 'debug'], { env: childEnv(ENV) });
    let answer = '';
    try {
      const url = (await waitForOutput(serve.stdout, /status (http:\/\/127\.0\.0\.1:\d+)\//))[1];
      writeFileSync(file, inReferences(base));
      serve.child.kill('SIGHUP');
      await waitForOutput(serve.stderr, /config reload failed/);
      writeFileSync(file, inQuotedFields(base));
      const refused = await fetch(`${url}/-/reload`, { method: 'POST' });
      expect(refused.status).toBe(400);
      answer = await refused.text();
      expect(answer).toContain('targets[0].keys[0].secretFile');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    expect(serve.stderr()).toContain('it looks like it could be the secret itself');
    expect(leaked([serve.stdout(), serve.stderr(), answer].join('\n'))).toEqual([]);
  });
});
