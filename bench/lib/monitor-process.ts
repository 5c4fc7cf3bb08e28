/**
 * Our monitor as a user runs it: `node bin/repairmon.js serve --config FILE` in its own process.
 * The config names the key only as `${REPAIR_BENCH_KEY}`; the value reaches the child through its
 * environment, and every bench key alias shares that one demo key.
 */
import { join } from 'node:path';
import YAML from 'yaml';
import { childEnv, startReadyProgram } from './child.js';
import { freePort } from './port.js';
import { packageRoot } from '../../lib/index.js';

export const BENCH_KEY_ENV = 'REPAIR_BENCH_KEY';
// From the checkout's root, so this works from dist/ (the benches) and from source (the tests).
export const REPAIRMON_BIN = join(packageRoot(), 'bin', 'repairmon.js');

export function benchKeyAlias(i: number): string {
  return `bench-${String(i + 1).padStart(5, '0')}`;
}

/** The monitor YAML for `keys` tenant keys of one tenant, all reading the same secret variable. */
export function benchMonitorYaml(o: {
  baseUrl: string;
  keys: number;
  tenant: string;
  schedule: string;
  timeout: string;
  canaries: boolean;
  concurrency?: number;
}): string {
  const keys = Array.from({ length: o.keys }, (_, i) => ({
    alias: benchKeyAlias(i),
    kind: 'tenant',
    tenant: o.tenant,
    auth: 'bearer',
    secret: `\${${BENCH_KEY_ENV}}`,
  }));
  return YAML.stringify({
    concurrency: o.concurrency ?? 16,
    historyPerProbe: 60,
    targets: [{ name: 'bench', baseUrl: o.baseUrl, schedule: o.schedule, timeout: o.timeout, canaries: o.canaries, keys }],
  });
}

/** A `port` fixed by the caller lets a stopped monitor come back on the same address. */
export async function startMonitorProcess(file: string, key: string, o: { port?: number; logLevel?: string; readyMs?: number } = {}) {
  const port = o.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const args = ['serve', '--config', file, '--listen', `127.0.0.1:${port}`, '--log-level', o.logLevel ?? 'warn'];
  const env = childEnv({ [BENCH_KEY_ENV]: key });
  const program = await startReadyProgram(
    'repairmon serve',
    [process.execPath, REPAIRMON_BIN, ...args],
    env,
    `${origin}/-/ready`,
    o.readyMs ?? 15_000,
  );
  return { program, origin, close: () => program.stop() };
}
