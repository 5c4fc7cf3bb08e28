/**
 * Rotating keys without a restart: a reload (SIGHUP, POST /-/reload) rereads `secretFile` keys,
 * while `${ENV}` keys keep the values the process started with (a running process cannot see a
 * changed environment). The reload says which keys those are, in its answer and in a log line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { createLogger } from '../../../lib/logger.js';
import { loadConfigFile } from '../../../monitor/config/load.js';
import { createMonitor } from '../../../monitor/service.js';

it('a reload rereads secret files, keeps ${ENV} keys, and names those in its answer and log', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'repairmon-rotate-'));
  const keyFile = join(dir, 'file.key');
  writeFileSync(keyFile, 'rs_test_file_value_before_0001\n');
  const config = join(dir, 'monitor.yaml');
  writeFileSync(
    config,
    [
      'targets:',
      '  - name: t',
      '    baseUrl: http://127.0.0.1:9/api/v1',
      '    schedule: "0 0 1 1 *"',
      '    keys:',
      '      - { alias: from-env, kind: tenant, tenant: rowery-nowak, secret: "${ROTATE_KEY}" }',
      '      - { alias: from-file, kind: tenant, tenant: rowery-nowak, secretFile: file.key }',
    ].join('\n'),
  );
  const env: NodeJS.ProcessEnv = { ROTATE_KEY: 'rs_test_env_value_before_00001' };
  const first = loadConfigFile(config, env);
  if (!first.ok) throw new Error(JSON.stringify(first.issues));
  const out = new PassThrough();
  let log = '';
  out.on('data', (c: Buffer) => (log += c.toString()));
  const monitor = createMonitor(first.config, {
    logger: createLogger({ level: 'info', destination: out }),
    load: () => loadConfigFile(config, env),
  });
  try {
    writeFileSync(keyFile, 'rs_test_file_value_after_00002\n');
    // What the process sees of its environment does not change when the Secret behind it does.
    const result = await monitor.reload();
    expect(result).toEqual({ ok: true, probes: expect.any(Number), envKeysKept: ['t/from-env'] });
    const keys = monitor.config().targets[0]!.keys;
    expect(keys.find((k) => k.alias === 'from-file')?.key.reveal()).toBe('rs_test_file_value_after_00002');
    expect(keys.find((k) => k.alias === 'from-env')?.key.reveal()).toBe('rs_test_env_value_before_00001');
    const line = log.split('\n').find((l) => l.includes('keep the values this process started with'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 40, keys: ['t/from-env'] });
    expect(line).toContain('restart to pick up rotated ${ENV} keys, or move them to secretFile');
  } finally {
    await monitor.stop();
  }
});
