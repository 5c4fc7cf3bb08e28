/**
 * Our monitor as a user runs it: `node bin/repairmon.js serve --config FILE` in its own
 * process. The config names the key only as `${REPAIR_BENCH_KEY}`; the value reaches the
 * child through its environment. Every bench key alias shares that one demo key, which is
 * what lets a handful of demo keys stand in for hundreds of tenants' keys.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import YAML from 'yaml';
import { type ChildProgram, childEnv, startProgram } from './child.js';
import { freePort } from './port.js';
import { packageRoot } from '../../lib/index.js';
import { waitForOk } from './wait-http.js';

export const BENCH_KEY_ENV = 'REPAIR_BENCH_KEY';
// From the checkout's root, so this works from dist/ (the benches) and from source (the tests).
export const REPAIRMON_BIN = join(packageRoot(), 'bin', 'repairmon.js');

export interface BenchConfigOptions {
  readonly baseUrl: string;
  readonly keys: number;
  readonly tenant: string;
  readonly schedule: string;
  readonly timeout: string;
  readonly canaries: boolean;
  readonly concurrency?: number;
}

export function benchKeyAlias(i: number): string {
  return `bench-${String(i + 1).padStart(5, '0')}`;
}

/** The monitor YAML for `keys` tenant keys of one tenant, all reading the same secret variable. */
export function benchMonitorYaml(o: BenchConfigOptions): string {
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

export interface RunningMonitorProcess {
  readonly program: ChildProgram;
  readonly origin: string;
  close(): Promise<void>;
}

/** `port` fixed by the caller lets a stopped monitor come back on the same address. */
export async function startMonitorProcess(dir: string, yaml: string, key: string, fixedPort?: number): Promise<RunningMonitorProcess> {
  const file = join(dir, 'monitor.yaml');
  await writeFile(file, yaml, { mode: 0o600 });
  const port = fixedPort ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const args = [REPAIRMON_BIN, 'serve', '--config', file, '--listen', `127.0.0.1:${port}`, '--log-level', 'warn'];
  const program = startProgram(process.execPath, args, childEnv({ [BENCH_KEY_ENV]: key }));
  try {
    await waitForOk(`${origin}/-/ready`, 15_000, program.alive);
  } catch (error) {
    await program.stop();
    throw new Error(`repairmon serve did not start: ${(error as Error).message}\n${program.tail()}`);
  }
  return { program, origin, close: () => program.stop() };
}
