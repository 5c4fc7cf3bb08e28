/**
 * `repairmon sandbox --monitor-out DIR`: DIR/monitor.yaml (the config `repairmon demo` runs) and
 * one private key file per key it names. A restart rewrites both at the same paths, which serve
 * rereads on reload. A link at DIR is refused; files go in by rename.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { demoRawConfig } from '../../monitor/index.js';
import { type RunningSandbox, existingKind, replaceFile } from '../../sandbox/index.js';
import { UsageError } from '../command.js';

export const MONITOR_CONFIG_FILE = 'monitor.yaml';
/** A fault shows within seconds; a round (~70 probes, 32 at a time, 2 s at worst) fits even when the sandbox stalls. */
const SCHEDULE = '*/10 * * * * *';
const TIMEOUT_MS = 2_000;
const CONCURRENCY = 32;

/** A key's file name: its alias, made safe as one path segment. */
function keyFile(alias: string): string {
  return `${encodeURIComponent(alias)}.key`;
}

/** Refuses DIR before anything starts: a link (it could point anywhere) or something that is not a folder. */
export async function checkMonitorOut(dir: string): Promise<void> {
  const kind = await existingKind(dir).catch((error: unknown) => {
    throw new UsageError(`--monitor-out: cannot examine ${dir} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  });
  if (kind === 'link') throw new UsageError(`--monitor-out: ${dir} is a symbolic link; give a folder of your own (nothing was written)`);
  if (kind === 'file') throw new UsageError(`--monitor-out: ${dir} is a file; give a folder (nothing was written)`);
}

/** Writes DIR/monitor.yaml and DIR/ALIAS.key; returns the config's absolute path (another terminal may sit elsewhere). */
export async function writeMonitorOut(dir: string, sandbox: RunningSandbox): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { raw } = demoRawConfig(sandbox, {
    schedule: SCHEDULE,
    timeoutMs: TIMEOUT_MS,
    concurrency: CONCURRENCY,
    secretFile: keyFile,
    ...(sandbox.ca ? { caFile: resolve(sandbox.ca.file) } : {}),
  });
  const probed = new Set((raw['targets'] as { keys: { alias: string }[] }[]).flatMap((t) => t.keys.map((k) => k.alias)));
  for (const key of sandbox.keys.filter((k) => probed.has(k.alias)))
    await replaceFile(join(dir, keyFile(key.alias)), `${key.key}\n`, 0o600);
  const header = [
    `# Written by repairmon sandbox --monitor-out for the sandbox at ${sandbox.baseUrl}; a restart rewrites it.`,
    '# Run: repairmon serve --config THIS_FILE. Every option is explained in the package: monitor/examples/monitor.yaml.',
    '',
  ].join('\n');
  const file = join(dir, MONITOR_CONFIG_FILE);
  await replaceFile(file, `${header}${stringify(raw)}`, 0o644);
  return resolve(file);
}
