/**
 * `repairmon check-config` on an 80 000-key file is seconds of synchronous parsing. A
 * SIGTERM sent meanwhile (a CI job cancelled, `timeout 10 repairmon check-config ...`) must end
 * it at once, by that signal: it used to be caught by a handler that could only run once the
 * parse was over, so the process went on for a minute and then reported "config OK".
 * Runs the built CLI (bin/ -> dist/), like a user; `npm test` builds first.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { KEY_PREFIXES } from '../../api/contract/index.js';
import { spawnCli, waitFor } from '../helpers/rig.js';

// Under the config reader's 8 MiB cap (about 7 MB).
const KEYS = 80_000;
const dir = mkdtempSync(join(tmpdir(), 'repairmon-check-signal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hugeConfig(): string {
  const file = join(dir, 'huge.yaml');
  const keys = Array.from(
    { length: KEYS },
    (_, i) => `      - { alias: shop-${i}-test, kind: tenant, tenant: shop-${i}, secret: "\${KEY}" }`,
  );
  writeFileSync(file, ['targets:', '  - name: huge', '    baseUrl: http://127.0.0.1:9/api/v1', '    keys:', ...keys, ''].join('\n'));
  return file;
}

/** Bytes the process has read so far (/proc/PID/io), or undefined where /proc does not say. */
function bytesRead(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/io`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('rchar:'));
    return line === undefined ? undefined : Number(line.slice('rchar:'.length));
  } catch {
    return undefined;
  }
}

/**
 * Until the process has read the file whole (modules read before it count too), at most 10 s: a
 * slower start still tests the signal. Where /proc cannot tell, a moment (nothing to watch).
 */
async function busyWith(pid: number, size: number): Promise<void> {
  if (bytesRead(pid) === undefined) return void (await sleep(1_500));
  await waitFor(() => (bytesRead(pid) ?? size) >= size, { timeoutMs: 10_000, everyMs: 20 }).catch(() => undefined);
}

it('SIGTERM in the middle of parsing an 80 000-key file ends check-config at once, by the signal', async () => {
  const file = hugeConfig();
  const size = statSync(file).size;
  const run = spawnCli(['check-config', '--config', file], { env: { KEY: `${KEY_PREFIXES.test}checkconfigsignal0123456789` } });
  const output = (): string => run.stdout() + run.stderr();
  await busyWith(run.child.pid ?? 0, size);
  expect(run.child.exitCode, output()).toBeNull();
  run.child.kill('SIGTERM');
  // A bound, not a wait: the exit normally comes at once.
  const ended = await Promise.race([run.exited.then(() => true), sleep(5_000).then(() => false)]);
  if (!ended) run.child.kill('SIGKILL');
  expect({ ended, code: run.child.exitCode, signal: run.child.signalCode }, output()).toEqual({
    ended: true,
    code: null,
    signal: 'SIGTERM',
  });
}, 30_000);
