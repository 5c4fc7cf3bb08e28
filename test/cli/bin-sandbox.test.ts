/** The real binary: `node bin/repairmon.js sandbox --port 0 --json` (compiled by `npm run build`, which `npm test` runs first). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { AUTH_SCHEMES, authHeader, parseEnvelope } from '../../api/contract/index.js';
import { type SandboxProcess, ensureBuilt, runCli, startSandboxProcess } from '../helpers/rig.js';

let sandbox: SandboxProcess | undefined;

beforeAll(() => ensureBuilt());
afterAll(() => sandbox?.process.child.kill('SIGKILL'));

describe('bin/repairmon.js sandbox', () => {
  it('prints one JSON line, serves both header forms and exits 0 on SIGTERM', async () => {
    sandbox = await startSandboxProcess();
    const { baseUrl } = sandbox;
    const key = sandbox.key('kowalski-test').key;
    for (const scheme of AUTH_SCHEMES) {
      const h = authHeader(scheme, key);
      const res = await request(`${baseUrl}/tenants/serwis-kowalski/repairs`, { headers: { [h.name]: h.value } });
      const text = await res.body.text();
      expect(res.statusCode).toBe(200);
      expect(parseEnvelope(text, { status: 200, list: true })).toMatchObject({ valid: true });
    }
    expect(sandbox.process.stdout().trim().split('\n')).toHaveLength(1);
    expect(await sandbox.close()).toBe(0);
  });

  it('--dialect legacy: the JSON line names it and the binary speaks it', async () => {
    sandbox = await startSandboxProcess(['--dialect', 'legacy']);
    const { baseUrl, line } = sandbox;
    expect(line['dialect']).toMatchObject({ name: 'legacy', slug: 'snake' });
    const h = authHeader('bearer', sandbox.key('nowak-nologs-test').key);
    const logs = await request(`${baseUrl}/tenants/rowery_nowak/logs`, { headers: { [h.name]: h.value } });
    expect([logs.statusCode, logs.headers['x-ratelimit-reset']]).toEqual([403, '60']);
    expect(parseEnvelope(await logs.body.text(), { status: 403 })).toMatchObject({
      valid: true,
      envelope: { error: { code: 'forbidden' } },
    });
    expect(await sandbox.close()).toBe(0);
  });

  it('a bad --dialect exits 2 naming the key and value, and starts nothing', async () => {
    const result = await runCli(['sandbox', '--port', '0', '--dialect', 'legacy,index=maybe']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--dialect: index: value "maybe" is not allowed; allowed values: key, public');
    expect(result.stdout).toBe('');
  });
});
