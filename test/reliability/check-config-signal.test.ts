/**
 * `repairmon check-config` on a 200 000-key file is tens of seconds of synchronous parsing. A
 * SIGTERM sent meanwhile (a CI job cancelled, `timeout 10 repairmon check-config ...`) must end
 * it at once, by that signal: it used to be caught by a handler that could only run once the
 * parse was over, so the process went on for a minute and then reported "config OK".
 * Runs the built CLI (bin/ -> dist/), like a user; `npm test` builds first.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { KEY_PREFIXES } from '../../api/contract/index.js';
import { BIN } from './helpers.js';

const KEYS = 200_000;
const dir = mkdtempSync(join(tmpdir(), 'repairmon-check-signal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hugeConfig(): string {
  const file = join(dir, 'huge.yaml');
  const keys = Array.from({ length: KEYS }, (_, i) => `      - { alias: shop-${i}-test, kind: tenant, tenant: shop-${i}, secret: "\${KEY}" }`);
  writeFileSync(file, ['targets:', '  - name: huge', '    baseUrl: http://127.0.0.1:9/api/v1', '    keys:', ...keys, ''].join('\n'));
  return file;
}

/** Bytes the process has read so far (/proc/PID/io), or undefined where /proc does not say. */
function bytesRead(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/io`, 'utf8').split('\n').find((l) => l.startsWith('rchar:'));
    return line === undefined ? undefined : Number(line.slice('rchar:'.length));
  } catch {
    return undefined;
  }
}

/** Until the process has read the file whole (modules read before it count too), or, where /proc cannot tell, a moment. */
async function busyWith(pid: number, size: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const read = bytesRead(pid);
    if (read === undefined) return void (await sleep(1_500));
    if (read >= size || Date.now() > deadline) return;
    await sleep(20);
  }
}

it('SIGTERM in the middle of parsing a 200 000-key file ends check-config at once, by the signal', async () => {
  const file = hugeConfig();
  const size = statSync(file).size;
  const child = spawn(process.execPath, [BIN, 'check-config', '--config', file], { env: { PATH: process.env['PATH'], KEY: `${KEY_PREFIXES.test}checkconfigsignal0123456789` }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  await busyWith(child.pid ?? 0, size);
  expect(child.exitCode, output).toBeNull();
  child.kill('SIGTERM');
  const [code, signal] = await Promise.race([exited, sleep(5_000).then(() => ['still running 5 s after SIGTERM', null] as const)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  expect({ code, signal }, output).toEqual({ code: null, signal: 'SIGTERM' });
}, 30_000);
