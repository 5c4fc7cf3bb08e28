/** A real Alertmanager (Debian's) on a free port with a temporary data dir and its cluster port turned off. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReadyProgram } from './child.js';
import { freePort } from './port.js';

export const ALERTMANAGER_BINARY = '/usr/bin/prometheus-alertmanager';

/** `address` is host:port, for Prometheus' `alerting` section. */
export async function startAlertmanager(configYaml: string): Promise<{ address: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'repairmon-alertmanager-'));
  writeFileSync(join(dir, 'alertmanager.yml'), configYaml);
  const address = `127.0.0.1:${await freePort()}`;
  const args = [`--config.file=${join(dir, 'alertmanager.yml')}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=${address}`];
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true });
  const program = await startReadyProgram(
    'alertmanager',
    [ALERTMANAGER_BINARY, ...args, '--cluster.listen-address=', '--log.level=warn'],
    process.env,
    `http://${address}/-/ready`,
    30_000,
  ).catch((error: unknown) => {
    removeDir();
    throw error;
  });
  return { address, close: () => program.stop().then(removeDir) };
}
