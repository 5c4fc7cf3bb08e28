/**
 * TLS test kit: a short-lived self-signed certificate made by the real `openssl` at test time,
 * and an https front for the real sandbox (a TLS-terminating byte pipe, since `startSandbox`
 * serves plain http only). Nothing is written outside a temp dir.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TLSSocket, createServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { toolAvailable } from './tools.js';

export const OPENSSL = 'openssl';

/** True when openssl runs; says so loudly on stderr when it does not, so a skip is never silent. */
export function opensslPresent(why: string): boolean {
  const run = spawnSync(OPENSSL, ['version'], { encoding: 'utf8' });
  return toolAvailable(run.status === 0, why, `\`${OPENSSL}\` (apt-get install openssl)`);
}

export interface TestCertificate {
  readonly dir: string;
  readonly certFile: string;
  readonly keyFile: string;
  readonly cert: string;
  readonly key: string;
  /** notAfter as openssl itself reports it, in Unix seconds. */
  readonly notAfterSeconds: number;
  remove(): void;
}

export function makeCertificate(options: { commonName: string; altNames: readonly string[]; days?: number }): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'repairmon-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    OPENSSL,
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      String(options.days ?? 2),
      '-subj',
      `/CN=${options.commonName}`,
      '-addext',
      `subjectAltName=${options.altNames.join(',')}`,
    ],
    { stdio: 'pipe' },
  );
  const endDate = execFileSync(OPENSSL, ['x509', '-in', certFile, '-noout', '-enddate'], { encoding: 'utf8' });
  const notAfter = /^notAfter=(.+)$/m.exec(endDate)?.[1] ?? '';
  const ms = Date.parse(notAfter);
  if (!Number.isFinite(ms)) throw new Error(`cannot read notAfter from openssl: ${endDate}`);
  return {
    dir,
    certFile,
    keyFile,
    cert: readFileSync(certFile, 'utf8'),
    key: readFileSync(keyFile, 'utf8'),
    notAfterSeconds: ms / 1000,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TlsFront {
  /** https://127.0.0.1:PORT/api/v1 */
  readonly baseUrl: string;
  readonly port: number;
  /** TLS handshakes completed so far: one per connection a client opened. */
  handshakes(): number;
  close(): Promise<void>;
}

/** An https listener on port 0 that pipes every decrypted connection to the sandbox's http port. */
export async function startTlsFront(cert: TestCertificate, upstreamPort: number): Promise<TlsFront> {
  const sockets = new Set<Socket>();
  let handshakes = 0;
  const server = createServer({ key: cert.key, cert: cert.cert }, (client: TLSSocket) => {
    handshakes += 1;
    const upstream = connect(upstreamPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  // A client that rejects our certificate aborts the handshake: expected here, not a failure.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `https://127.0.0.1:${port}/api/v1`,
    port,
    handshakes: () => handshakes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
