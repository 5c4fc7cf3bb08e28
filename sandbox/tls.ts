/**
 * The sandbox's https mode: a throwaway CA and a server certificate signed by it, made at start.
 * Node (20 to 26) can parse X.509 (`X509Certificate`) but not create it, and the toolkit takes no
 * dependency for that, so the real `openssl` makes them (it is on every CI image we use). The
 * private keys live in a temp dir only while openssl runs, then only in memory; the CA
 * certificate (public) is written where asked, so a client can be told to trust it.
 *
 * What the sandbox writes (the `--tls-ca-out` CA, the `--monitor-out` config and keys) goes
 * where another user may have planted something: a temp file created exclusively beside the
 * target (O_EXCL never follows a link), then renamed over it. A rename replaces a link planted
 * at the target instead of writing through it, and a reader never sees half a file.
 */
import { execFile } from 'node:child_process';
import { X509Certificate, randomBytes } from 'node:crypto';
import { lstat, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { DOCUMENT_FILE_MAX_BYTES, readUserFile } from '../lib/index.js';
import { SandboxConfigError } from './errors.js';

/** What is at `path` now: nothing, a regular file (its text is read only by the caller), or something never to replace. */
export async function existingKind(path: string): Promise<'none' | 'file' | 'link' | 'other'> {
  try {
    const stat = await lstat(path);
    if (stat.isSymbolicLink()) return 'link';
    return stat.isFile() ? 'file' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
}

/** Writes `text` to `path` through a fresh temp file and one rename. */
export async function replaceFile(path: string, text: string, mode: number): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temp, text, { mode, flag: 'wx' });
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Days the certificates are valid: long enough for a working session, short for a throwaway CA. */
const DAYS = '-days 7';
const CURVE = '-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes';
const SERVER_EXTENSIONS = ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=serverAuth'];

/** Runs openssl in `cwd` with the words of `command`, then `-subj subject` (which holds spaces). */
function openssl(cwd: string, command: string, subject?: string): Promise<void> {
  const args = [...command.split(' '), ...(subject ? ['-subj', subject] : [])];
  return new Promise((resolve, reject) => {
    execFile('openssl', args, { cwd, timeout: 30_000 }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      const why =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'needs the openssl command to make its certificates (apt-get install openssl)'
          : `openssl failed: ${String(stderr).trim().split('\n')[0] ?? error.message}`;
      reject(new SandboxConfigError('tls', why));
    });
  });
}

/** Names the certificate is valid for: always loopback, plus the listening host. */
export function subjectAltNames(host: string): string[] {
  const names = new Set(['IP:127.0.0.1', 'IP:::1', 'DNS:localhost']);
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare !== '0.0.0.0' && bare !== '::' && bare !== '') names.add(isIP(bare) ? `IP:${bare}` : `DNS:${bare}`);
  return [...names];
}

/** The CA certificate (what a client trusts), and the server certificate and key it issued (what the server presents), as PEM. */
async function makeCertificates(host: string): Promise<{ caPem: string; cert: string; key: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'repairmon-sandbox-tls-'));
  try {
    const caExtensions = '-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign';
    await openssl(dir, `req -x509 ${CURVE} -keyout ca.key -out ca.pem ${DAYS} ${caExtensions}`, '/CN=repairmon sandbox CA (throwaway)');
    await openssl(dir, `req ${CURVE} -keyout server.key -out server.csr`, '/CN=repairmon sandbox');
    const san = `subjectAltName=${subjectAltNames(host).join(',')}`;
    await writeFile(join(dir, 'server.ext'), [san, ...SERVER_EXTENSIONS].join('\n'));
    await openssl(dir, `x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem ${DAYS} -extfile server.ext`);
    const [caPem, cert, key] = await Promise.all(['ca.pem', 'server.pem', 'server.key'].map((f) => readFile(join(dir, f), 'utf8')));
    // Fail here, not at the first handshake, if openssl produced something Node cannot use.
    if (!new X509Certificate(cert!).checkIssued(new X509Certificate(caPem!)))
      throw new SandboxConfigError('tls', 'openssl made a server certificate its CA did not issue');
    return { caPem: caPem!, cert: cert!, key: key! };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const PEM_CERTIFICATES = /^(?:\s*-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+-----END CERTIFICATE-----)+\s*$/;

/**
 * `--tls-ca-out` names a file the sandbox will replace: refused when it is a link (in a shared
 * folder, one planted to redirect the write), not a regular file, or a file that is not a
 * certificate (the `--keys` file, anything of the user's). A CA from an earlier start is replaced.
 */
async function checkCaOut(path: string): Promise<void> {
  const refuse = (why: string): SandboxConfigError =>
    new SandboxConfigError(
      'tls-ca-out',
      `${path} ${why}; give the path of a new file or of a CA certificate an earlier start wrote (nothing was written)`,
    );
  const kind = await existingKind(path).catch((error: unknown) => {
    throw refuse(`cannot be examined (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  });
  if (kind === 'link') throw refuse('is a symbolic link');
  if (kind === 'other') throw refuse('is not a regular file');
  if (kind !== 'file') return;
  const read = readUserFile(path, DOCUMENT_FILE_MAX_BYTES);
  if (!read.ok) throw refuse(read.reason);
  if (!PEM_CERTIFICATES.test(read.text)) throw refuse('exists and is not a CA certificate');
}

/**
 * Certificates for `host` and the CA written out: everything `startSandbox({ tls: true })` needs.
 * The CA goes to `caOut` (kept), or to a fresh temp file that `cleanup` removes.
 */
export async function prepareTls(host: string, caOut: string | undefined) {
  if (caOut !== undefined) await checkCaOut(caOut);
  const certificates = await makeCertificates(host);
  let dir: string | undefined;
  let caFile = caOut;
  try {
    if (caFile !== undefined) await replaceFile(caFile, certificates.caPem, 0o644);
    else {
      dir = await mkdtemp(join(tmpdir(), 'repairmon-sandbox-ca-'));
      caFile = join(dir, 'ca.pem');
      await writeFile(caFile, certificates.caPem, { mode: 0o644 });
    }
  } catch (error) {
    throw new SandboxConfigError(
      'tls-ca-out',
      `cannot write the CA certificate to ${caOut ?? 'a temp file'} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  const cleanup = async (): Promise<void> => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  };
  return { ...certificates, caFile, cleanup };
}
