/**
 * `startSandbox({ tls: true })`: https with a CA made at start by the real openssl; a client
 * trusting that CA (and only it) gets through, one trusting Node's defaults does not.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { authHeader } from '../../api/contract/index.js';
import { startSandbox } from '../../sandbox/index.js';
import { subjectAltNames } from '../../sandbox/tls.js';
import { opensslPresent } from '../helpers/tls.js';

const haveOpenssl = opensslPresent('the sandbox --tls tests');
const dir = mkdtempSync(join(tmpdir(), 'sandbox-tls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!haveOpenssl)('startSandbox({ tls: true })', { timeout: 30_000 }, () => {
  it('serves https with a certificate its own CA issued for 127.0.0.1; the CA goes where asked and stays', async () => {
    const caOut = join(dir, 'ca.pem');
    const sandbox = await startSandbox({ tls: true, tlsCaOut: caOut, pageSize: 1 });
    const trusting = new Agent({ connect: { ca: readFileSync(caOut, 'utf8') } });
    try {
      expect(sandbox.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(sandbox.ca?.file).toBe(caOut);
      const ca = new X509Certificate(readFileSync(caOut));
      expect(ca.ca).toBe(true);
      const h = authHeader('bearer', sandbox.key('nowak-prod').key);
      const res = await request(`${sandbox.baseUrl}/tenants/rowery-nowak/bikes`, { headers: { [h.name]: h.value }, dispatcher: trusting });
      expect(res.statusCode).toBe(200);
      // Paging works over https too, and links back to https.
      expect(res.headers['link']).toMatch(/^<https:\/\/127\.0\.0\.1:\d+\/api\/v1\/tenants\/rowery-nowak\/bikes\?page=2>; rel="next"$/);
      await res.body.dump();
      await expect(request(`${sandbox.baseUrl}/docs`)).rejects.toMatchObject({
        code: expect.stringMatching(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/),
      });
    } finally {
      await trusting.close();
      await sandbox.close();
    }
    expect(existsSync(caOut)).toBe(true);
  });

  it('without tlsCaOut the CA is a temp file, removed on close; each start makes a new CA', async () => {
    const a = await startSandbox({ tls: true });
    const b = await startSandbox({ tls: true });
    const file = a.ca!.file;
    expect(existsSync(file)).toBe(true);
    expect(a.ca!.pem).not.toBe(b.ca!.pem);
    await Promise.all([a.close(), b.close()]);
    expect(existsSync(file)).toBe(false);
  });

  it('a second start with the same tlsCaOut replaces the previous CA (a restart)', async () => {
    const caOut = join(dir, 'again.pem');
    const first = await startSandbox({ tls: true, tlsCaOut: caOut });
    await first.close();
    const second = await startSandbox({ tls: true, tlsCaOut: caOut });
    await second.close();
    expect(readFileSync(caOut, 'utf8')).toBe(second.ca!.pem);
    expect(second.ca!.pem).not.toBe(first.ca!.pem);
  });

  it('names the listening host in the certificate besides loopback', () => {
    expect(subjectAltNames('127.0.0.1')).toEqual(['IP:127.0.0.1', 'IP:::1', 'DNS:localhost']);
    expect(subjectAltNames('sandbox.internal')).toContain('DNS:sandbox.internal');
    expect(subjectAltNames('0.0.0.0')).toEqual(['IP:127.0.0.1', 'IP:::1', 'DNS:localhost']);
  });
});

describe('tlsCaOut never overwrites what is not a CA it wrote, nor follows a link (before anything is made)', () => {
  it.each([
    ['a symbolic link (to a file of the user)', (path: string, victim: string) => symlinkSync(victim, path), /is a symbolic link/],
    ['a dangling symbolic link', (path: string) => symlinkSync(join(dir, 'nowhere', 'x.pem'), path), /is a symbolic link/],
    [
      'the --keys file',
      (path: string) => writeFileSync(path, 'nowak-test: rs_test_0123456789abcdef\n'),
      /exists and is not a CA certificate/,
    ],
    ['a directory', (path: string) => mkdirSync(path), /is not a regular file/],
  ])('%s: refused naming the path, nothing written', async (_what, plant, message) => {
    const path = join(dir, `planted-${Math.random().toString(36).slice(2)}.pem`);
    const victim = join(dir, `victim-${Math.random().toString(36).slice(2)}`);
    writeFileSync(victim, 'precious\n');
    plant(path, victim);
    const before = lstatSync(path);
    const error = (await startSandbox({ tls: true, tlsCaOut: path }).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ name: 'SandboxConfigError', option: 'tls-ca-out' });
    expect(error.message).toContain(path);
    expect(error.message).toMatch(message);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(path).mtimeMs).toBe(before.mtimeMs);
    expect(lstatSync(path).isSymbolicLink()).toBe(before.isSymbolicLink());
  });
});
