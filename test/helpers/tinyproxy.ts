/**
 * A real HTTP proxy for tests: Debian's tinyproxy on a free loopback port, its log read back to
 * tell what it saw (a CONNECT tunnel for https, the request line for plain http).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from './rig.js';
import { toolAvailable } from './tools.js';

export const hasTinyproxy = (what: string): boolean =>
  toolAvailable(spawnSync('tinyproxy', ['-v']).status === 0, what, "Debian's `tinyproxy` (apt-get install tinyproxy)");

export interface Tinyproxy {
  /** `http://127.0.0.1:PORT`, for HTTPS_PROXY / HTTP_PROXY. */
  readonly url: string;
  /** What the proxy logged so far. */
  log(): string;
  close(): Promise<void>;
}

export async function startTinyproxy(): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'tinyproxy-'));
  const port = await freePort();
  const logFile = join(dir, 'proxy.log');
  // No ConnectPort line: CONNECT is allowed to any port (the test servers listen on random ones).
  writeFileSync(
    join(dir, 'tinyproxy.conf'),
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Allow 127.0.0.1',
      'Timeout 30',
      'MaxClients 20',
      `LogFile "${logFile}"`,
      'LogLevel Info',
      'DisableViaHeader Yes',
      '',
    ].join('\n'),
  );
  writeFileSync(logFile, '');
  const child: ChildProcess = spawn('tinyproxy', ['-d', '-c', join(dir, 'tinyproxy.conf')], { stdio: 'ignore' });
  const log = (): string => readFileSync(logFile, 'utf8');
  await waitFor(() => /listening on|Accepting connections|Creating child/i.test(log()), {
    what: () => `tinyproxy to listen; its log:\n${log()}`,
    timeoutMs: 5_000,
    everyMs: 50,
  });
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
