/**
 * A real Alertmanager (Debian's /usr/bin/prometheus-alertmanager) on a free port with a
 * temporary data dir and its cluster port turned off, for the alert-latency measurement.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './port.js';

export const ALERTMANAGER_BINARY = '/usr/bin/prometheus-alertmanager';

export interface RunningAlertmanager {
  /** host:port, for Prometheus' `alerting` section. */
  readonly address: string;
  close(): Promise<void>;
}

export async function startAlertmanager(configYaml: string, binary = ALERTMANAGER_BINARY): Promise<RunningAlertmanager> {
  const dir = mkdtempSync(join(tmpdir(), 'repairmon-alertmanager-'));
  writeFileSync(join(dir, 'alertmanager.yml'), configYaml);
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    binary,
    [`--config.file=${join(dir, 'alertmanager.yml')}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=${address}`, '--cluster.listen-address=', '--log.level=warn'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-8_000)));
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([once(child, 'exit'), sleep(10_000).then(() => child.kill('SIGKILL'))]);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`alertmanager exited with ${child.exitCode}:\n${stderr}`);
    }
    if (await fetch(`http://${address}/-/ready`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`alertmanager not ready after 30 s:\n${stderr}`);
    }
    await sleep(100);
  }
  return { address, close };
}
