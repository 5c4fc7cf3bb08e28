/** `--data FILE`: one fixture per invalid file, with the exact path its error must name. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { authHeader } from '../../api/contract/index.js';
import { startSandbox } from '../../sandbox/index.js';
import { loadDataFile } from '../../sandbox/data-file.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/data/${name}`, import.meta.url));

describe('--data files', () => {
  it.each([
    ['unknown-key.yaml', 'keys[0].secret: unknown key'],
    ['bad-slug.json', 'tenants[1].slug: tenant slug "Zły_Slug" must be lowercase'],
    ['tenant-key-unknown-tenant.yaml', 'keys[1].tenant: a tenant key needs "tenant" naming one of: a-shop'],
    ['bad-scope.yaml', 'keys[0].scopes[1]:'],
    ['bad-environment.yaml', 'keys[0].environment:'],
    ['duplicate-alias.yaml', 'keys[1].alias: duplicate key alias "k"'],
    ['record-not-object.yaml', 'tenants[0].repairs[1]:'],
    ['not-yaml.yaml', 'line 2: '],
    ['missing.yaml', 'cannot read data file'],
  ])('%s is refused naming %s', async (name, message) => {
    const error = await loadDataFile(fixture(name)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'SandboxConfigError', option: 'data' });
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).toContain(fixture(name));
  });

  it('lists every problem at once, as the monitor config does', async () => {
    const error = (await loadDataFile(fixture('many-problems.yaml')).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('4 problem(s)');
    for (const line of [
      'tenants[0].colour: unknown key',
      'keys[0].environment:',
      'keys[1].alias: cannot contain control characters',
      'keys[1].scopes[0]:',
    ])
      expect(error.message).toContain(line);
  });

  it('a valid file replaces the demo tenants, records and keys', async () => {
    const sandbox = await startSandbox({ dataFile: fixture('valid.yaml') });
    try {
      expect(sandbox.tenants).toEqual(['rowery-testowe', 'inny-serwis']);
      expect(sandbox.keys.map((k) => [k.alias, k.key.slice(0, 8)])).toEqual([
        ['admin', 'rs_live_'],
        ['testowe', 'rs_test_'],
      ]);
      const h = authHeader('bearer', sandbox.key('testowe').key);
      const clients = await request(`${sandbox.baseUrl}/tenants/rowery-testowe/clients`, { headers: { [h.name]: h.value } });
      expect(await clients.body.json()).toEqual({ ok: true, data: [{ id: 'kl-1', firstName: 'Jan', lastName: 'Testowy' }] });
      const bikes = await request(`${sandbox.baseUrl}/tenants/rowery-testowe/bikes`, { headers: { [h.name]: h.value } });
      expect(bikes.statusCode).toBe(403);
      await bikes.body.dump();
    } finally {
      await sandbox.close();
    }
  });

  it('startSandbox refuses a bad file before listening', async () => {
    await expect(startSandbox({ dataFile: fixture('bad-scope.yaml') })).rejects.toMatchObject({ option: 'data' });
  });
});
