/**
 * Files a user names that are not files (issue 31, findings 1 and 2): a FIFO froze the monitor
 * in `open()` (reload, `/-/healthy`, probes, `check-config`), `/dev/zero` read until the process
 * ran out of memory, and a config had no size cap. One reader (lib/user-file.ts) opens only
 * regular files, without blocking, up to a cap. Proven on the reader itself and on the real
 * `repairmon check-config` and `repairmon serve`, every run bounded by a timeout so a regression
 * fails instead of hanging the suite.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_FILE_MAX_BYTES, SECRET_FILE_MAX_BYTES, readUserFile } from '../../lib/index.js';
import { startSandbox } from '../../sandbox/index.js';
import { childEnv, closedPort, runCli } from '../helpers/rig.js';
import { sandboxTargetYaml, serveChild, tempDirs } from './helpers.js';

const workDir = tempDirs('repairmon-hostile-files-');

function fifo(dir: string, name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

const KEY = 'rs_test_abcdefghijklmnop1234';

/** A one-key config whose target never gets probed during a check: only the secret file matters. */
function configWith(secretFile: string, baseUrl: string): string {
  return [
    'targets:',
    '  - name: t',
    `    baseUrl: ${baseUrl}`,
    '    schedule: "0 0 1 1 *"',
    '    canaries: false',
    '    keys:',
    `      - { alias: k, kind: tenant, tenant: rowery-nowak, secretFile: ${JSON.stringify(secretFile)} }`,
    '',
  ].join('\n');
}

describe('readUserFile', () => {
  it('refuses a FIFO, a device, a directory and a socket by what they are, at once; reads a regular file through a link', async () => {
    const dir = workDir();
    const pipe = fifo(dir, 'fifo.key');
    mkdirSync(join(dir, 'folder'));
    const socketPath = join(dir, 'sock');
    const server = createServer().listen(socketPath);
    await new Promise((done) => server.once('listening', done));
    writeFileSync(join(dir, 'real.key'), KEY);
    symlinkSync(join(dir, 'real.key'), join(dir, 'link.key'));
    symlinkSync(pipe, join(dir, 'link-to-fifo.key'));
    try {
      const reason = (path: string) => {
        const read = readUserFile(path, SECRET_FILE_MAX_BYTES);
        return read.ok ? `read ${read.text}` : `${read.code}: ${read.reason}`;
      };
      expect(reason(pipe)).toBe('NOT_REGULAR: is a FIFO (named pipe); give a regular file');
      expect(reason(join(dir, 'link-to-fifo.key'))).toBe('NOT_REGULAR: is a FIFO (named pipe); give a regular file');
      expect(reason('/dev/zero')).toBe('NOT_REGULAR: is a character device; give a regular file');
      expect(reason(join(dir, 'folder'))).toBe('NOT_REGULAR: is a directory; give a regular file');
      expect(reason(socketPath)).toBe('NOT_REGULAR: is a socket; give a regular file');
      expect(reason(join(dir, 'missing'))).toBe('ENOENT: cannot be read (ENOENT)');
      expect(reason(join(dir, 'link.key'))).toBe(`read ${KEY}`);
    } finally {
      server.close();
    }
  });

  it('reads exactly up to the cap and refuses one byte more, naming the cap', () => {
    const dir = workDir();
    writeFileSync(join(dir, 'at-cap'), 'a'.repeat(SECRET_FILE_MAX_BYTES));
    writeFileSync(join(dir, 'over-cap'), 'a'.repeat(SECRET_FILE_MAX_BYTES + 1));
    const atCap = readUserFile(join(dir, 'at-cap'), SECRET_FILE_MAX_BYTES);
    expect(atCap.ok && atCap.text.length).toBe(SECRET_FILE_MAX_BYTES);
    expect(readUserFile(join(dir, 'over-cap'), SECRET_FILE_MAX_BYTES)).toEqual({
      ok: false,
      code: 'TOO_LARGE',
      reason: 'is larger than 8 KiB (the limit for this file)',
    });
  });
});

describe('check-config on files that are not files', { timeout: 60_000 }, () => {
  it('a FIFO or /dev/zero as secretFile, a FIFO or an oversized file as the config: exit 2 naming the file, never a hang', async () => {
    const dir = workDir();
    const base = `http://127.0.0.1:${await closedPort()}/api/v1`;
    const pipe = fifo(dir, 'fifo.key');
    // Relative, as users write them (a random temp folder in a given path could look like a key).
    writeFileSync(join(dir, 'fifo.yaml'), configWith('fifo.key', base));
    writeFileSync(join(dir, 'zero.yaml'), configWith('/dev/zero', base));
    const configPipe = fifo(dir, 'config-fifo.yaml');
    // A comment, so only the size is wrong with it.
    writeFileSync(join(dir, 'huge.yaml'), `${configWith(join(dir, 'none'), base)}#${'x'.repeat(DOCUMENT_FILE_MAX_BYTES)}\n`);
    const check = (file: string) => runCli(['check-config', '--config', file], { env: childEnv(), timeoutMs: 20_000 });
    const [onFifo, onZero, configFifo, huge] = await Promise.all([
      check(join(dir, 'fifo.yaml')),
      check(join(dir, 'zero.yaml')),
      check(configPipe),
      check(join(dir, 'huge.yaml')),
    ]);
    expect(onFifo).toMatchObject({ code: 2, stdout: '' });
    expect(onFifo.stderr).toContain(
      `targets[0].keys[0].secretFile: key "k": secret file ${pipe} is a FIFO (named pipe); give a regular file`,
    );
    expect(onZero).toMatchObject({ code: 2, stdout: '' });
    expect(onZero.stderr).toContain('key "k": secret file /dev/zero is a character device; give a regular file');
    expect(configFifo).toMatchObject({ code: 2, stdout: '' });
    expect(configFifo.stderr).toContain(`config file ${configPipe} is a FIFO (named pipe); give a regular file`);
    expect(huge).toMatchObject({ code: 2, stdout: '' });
    expect(huge.stderr).toContain(`config file ${join(dir, 'huge.yaml')} is larger than 8 MiB (the limit for this file)`);
  });
});

describe('serve: a reload to a FIFO or /dev/zero', { timeout: 90_000 }, () => {
  it('is refused promptly (400 to POST /-/reload, a log line to SIGHUP); the running config keeps probing and answering', async () => {
    const sandbox = await startSandbox();
    const dir = workDir();
    const file = join(dir, 'monitor.yaml');
    writeFileSync(join(dir, 'good.key'), sandbox.key('nowak-test').key);
    const probing = (secretFile: string) =>
      `targets:\n${sandboxTargetYaml(sandbox.baseUrl, `secretFile: ${JSON.stringify(secretFile)}`)}\n`;
    writeFileSync(file, probing('good.key'));
    const { serve, url, metrics, clientsOk, until } = await serveChild(file, childEnv());
    const bounded = (path: string, init?: RequestInit) => fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
    try {
      await until(async () => (await clientsOk()) >= 1);

      const pipe = fifo(dir, 'fifo.key');
      writeFileSync(file, probing('fifo.key'));
      const refused = await bounded('/-/reload', { method: 'POST' });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { ok: boolean; issues: { path: string; message: string }[] };
      expect(body.issues).toEqual([
        {
          path: 'targets[0].keys[0].secretFile',
          message: `key "nowak-test": secret file ${pipe} is a FIFO (named pipe); give a regular file`,
        },
      ]);
      expect((await bounded('/-/healthy')).status).toBe(200);
      const seen = await clientsOk();
      await until(async () => (await clientsOk()) > seen);

      writeFileSync(file, probing('/dev/zero'));
      serve.child.kill('SIGHUP');
      await until(async () => serve.stderr().includes('secret file /dev/zero is a character device'));
      expect(serve.child.exitCode).toBeNull();
      expect(await metrics()).toMatch(/^repairmon_config_last_reload_successful 0$/m);
      const after = await clientsOk();
      await until(async () => (await clientsOk()) > after);
    } finally {
      serve.child.kill('SIGTERM');
      // A process stuck in open() would ignore SIGTERM: end it so the failure is reported.
      const stuck = setTimeout(() => serve.child.kill('SIGKILL'), 5_000);
      await serve.exited.finally(() => clearTimeout(stuck));
      await sandbox.close();
    }
    expect(await serve.exited).toBe(0);
  });
});
