/** The real binary: `node bin/repairmon.js sandbox --port 0 --json` (compiled by `npm run build`, which `npm test` runs first). */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { AUTH_SCHEMES, authHeader, parseEnvelope } from '../../api/contract/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let child: ChildProcess | undefined;

beforeAll(() => {
  // `npm test` builds first; a bare `vitest run` on a fresh clone needs it done here.
  if (!existsSync(`${root}dist/cli/index.js`) || !existsSync(`${root}dist/sandbox/index.js`)) {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  }
});
afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

function firstLine(proc: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    proc.stdout!.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
    });
    proc.once('exit', (code) => reject(new Error(`exited ${code} before printing a line`)));
  });
}

describe('bin/repairmon.js sandbox', () => {
  it('prints one JSON line, serves both header forms and exits 0 on SIGTERM', async () => {
    child = spawn(process.execPath, ['bin/repairmon.js', 'sandbox', '--port', '0', '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await firstLine(child);
    const { baseUrl, keys } = JSON.parse(line) as { baseUrl: string; keys: { alias: string; key: string }[] };
    const key = keys.find((k) => k.alias === 'kowalski-test')!.key;
    for (const scheme of AUTH_SCHEMES) {
      const h = authHeader(scheme, key);
      const res = await request(`${baseUrl}/tenants/serwis-kowalski/repairs`, { headers: { [h.name]: h.value } });
      const text = await res.body.text();
      expect(res.statusCode).toBe(200);
      expect(parseEnvelope(text, { status: 200, list: true })).toMatchObject({ valid: true });
    }
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
  });

  it('--dialect legacy: the JSON line names it and the binary speaks it', async () => {
    child = spawn(process.execPath, ['bin/repairmon.js', 'sandbox', '--port', '0', '--json', '--dialect', 'legacy'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await firstLine(child);
    const { baseUrl, keys, dialect } = JSON.parse(line) as { baseUrl: string; keys: { alias: string; key: string }[]; dialect: { name: string; slug: string } };
    expect(dialect).toMatchObject({ name: 'legacy', slug: 'snake' });
    const h = authHeader('bearer', keys.find((k) => k.alias === 'nowak-nologs-test')!.key);
    const logs = await request(`${baseUrl}/tenants/rowery_nowak/logs`, { headers: { [h.name]: h.value } });
    expect([logs.statusCode, logs.headers['x-ratelimit-reset']]).toEqual([403, '60']);
    expect(parseEnvelope(await logs.body.text(), { status: 403 })).toMatchObject({ valid: true, envelope: { error: { code: 'forbidden' } } });
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect(((await exited) as [number | null])[0]).toBe(0);
  });

  it('a bad --dialect exits 2 naming the key and value, and starts nothing', () => {
    const result = spawnSync(process.execPath, ['bin/repairmon.js', 'sandbox', '--port', '0', '--dialect', 'legacy,index=maybe'], { cwd: root, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--dialect: index: value "maybe" is not allowed; allowed values: key, public');
    expect(result.stdout).toBe('');
  });
});
