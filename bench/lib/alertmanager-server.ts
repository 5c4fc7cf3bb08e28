/**
 * A real Alertmanager (Debian's /usr/bin/prometheus-alertmanager) on a free port with a
 * temporary data dir and its cluster port turned off, for the alert-latency measurement.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProgram } from './child.js';
import { freePort } from './port.js';
import { waitForOk } from './wait-http.js';

export const ALERTMANAGER_BINARY = '/usr/bin/prometheus-alertmanager';

export interface RunningAlertmanager {
  /** host:port, for Prometheus' `alerting` section. */
  readonly address: string;
  close(): Promise<void>;
}

export async function startAlertmanager(configYaml: string, binary = ALERTMANAGER_BINARY): Promise<RunningAlertmanager> {
  const dir = mkdtempSync(join(tmpdir(), 'repairmon-alertmanager-'));
  writeFileSync(join(dir, 'alertmanager.yml'), configYaml);
  const address = `127.0.0.1:${await freePort()}`;
  const program = startProgram(
    binary,
    [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=${address}`,
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    process.env,
  );
  const close = async (): Promise<void> => {
    await program.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForOk(`http://${address}/-/ready`, 30_000, program.alive);
  } catch (error) {
    await close();
    throw new Error(`alertmanager did not start: ${error instanceof Error ? error.message : String(error)}\n${program.tail()}`);
  }
  return { address, close };
}
