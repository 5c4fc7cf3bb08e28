/** `startSandbox({ keysFile })`: fixed key values that survive a restart; every problem of the file at once. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_KEY_SPECS, isSandboxConfigError, startSandbox } from '../../sandbox/index.js';
import { parseKeysFile } from '../../sandbox/keys-file.js';

const NOWAK = 'rs_test_fixed_nowak_0123456789';
const PLATFORM = 'rs_test_fixed_platform_98765';
const dir = mkdtempSync(join(tmpdir(), 'repairmon-keys-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isSandboxConfigError(error)) return `${error.option}: ${error.message}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('keys file', () => {
  it('a restart keeps the fixed keys; aliases left out stay random', async () => {
    const keysFile = file('keys.yaml', `nowak-test: ${NOWAK}\nplatform-test: "${PLATFORM}"\n`);
    const first = await startSandbox({ keysFile });
    const firstKowalski = first.key('kowalski-test').key;
    await first.close();
    const second = await startSandbox({ keysFile });
    try {
      expect(second.key('nowak-test')).toMatchObject({ key: NOWAK, fixed: true });
      expect(second.key('platform-test').key).toBe(PLATFORM);
      expect(second.key('kowalski-test').key).not.toBe(firstKowalski);
      expect(second.key('kowalski-test').fixed).toBeUndefined();
      const res = await fetch(`${second.baseUrl}/tenants/rowery-nowak/clients`, { headers: { authorization: `Bearer ${NOWAK}` } });
      expect(res.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('JSON works too', async () => {
    const sandbox = await startSandbox({ keysFile: file('keys.json', JSON.stringify({ 'gdansk-test': 'rs_test_gdansk_fixed_value_1' })) });
    expect(sandbox.key('gdansk-test').key).toBe('rs_test_gdansk_fixed_value_1');
    await sandbox.close();
  });

  it('every problem at once, each naming the alias, never a value', () => {
    const message = refusal(() =>
      parseKeysFile(
        {
          'nowak-tst': 'rs_test_long_enough_value_1',
          'nowak-test': 'short',
          'kowalski-test': 'has space inside value',
          'gdansk-test': NOWAK,
          'platform-test': NOWAK,
          'nowak-prod': 42,
        },
        DEMO_KEY_SPECS,
        'keys.yaml',
      ),
    );
    expect(message.split('\n')).toEqual([
      'keys: keys.yaml: 5 problem(s):',
      `  nowak-tst: unknown alias; the sandbox's keys are: ${DEMO_KEY_SPECS.map((k) => k.alias).join(', ')}`,
      '  nowak-test: the value is shorter than 16 characters; it is not a usable key',
      '  kowalski-test: the value contains whitespace; it is not a usable key',
      '  platform-test: has the same value as gdansk-test: every key needs its own',
      '  nowak-prod: must be the key value as a string',
    ]);
    expect(message).not.toContain(NOWAK.slice(8));
  });

  it('an alias "__proto__" is a plain alias: its fixed value is kept (YAML and JSON), or refused by name when the sandbox has no such key', async () => {
    const VALUE = 'rs_test_fixed_proto_0123456789';
    const dataFile = file(
      'proto-data.yaml',
      'tenants: [{ slug: rowery-testowe, name: Rowery Testowe }]\nkeys:\n  - { alias: __proto__, kind: platform, environment: test, scopes: [platform, clients] }\n',
    );
    for (const keysFile of [file('proto.yaml', `__proto__: ${VALUE}\n`), file('proto.json', `{"__proto__": "${VALUE}"}`)]) {
      const sandbox = await startSandbox({ dataFile, keysFile });
      try {
        expect(sandbox.key('__proto__')).toMatchObject({ key: VALUE, fixed: true });
      } finally {
        await sandbox.close();
      }
      await expect(startSandbox({ keysFile })).rejects.toMatchObject({
        option: 'keys',
        message: expect.stringContaining('__proto__: unknown alias'),
      });
    }
  });

  it('an unreadable or malformed file is named; startSandbox starts nothing', async () => {
    await expect(startSandbox({ keysFile: join(dir, 'missing.yaml') })).rejects.toMatchObject({
      option: 'keys',
      message: expect.stringContaining('cannot read keys file'),
    });
    await expect(startSandbox({ keysFile: file('list.yaml', '- a\n- b\n') })).rejects.toMatchObject({
      option: 'keys',
      message: expect.stringContaining('expected record'),
    });
  });
});
