/**
 * The `ca` option against a real https server whose certificate is issued by a private CA, both
 * made by the real `openssl` in a temp dir at test time.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isConnectionError } from '../../../api/client/index.js';
import { toolAvailable } from '../../helpers/tools.js';
import { KEY, envelopeOk } from './helpers.js';

const HOST_NAME = 'api.internal.test';
const hasOpenssl = toolAvailable(
  spawnSync('openssl', ['version']).status === 0,
  'the client ca test',
  '`openssl` (apt-get install openssl)',
);

interface Pki {
  readonly dir: string;
  readonly caPem: string;
  readonly serverKey: string;
  readonly serverCert: string;
}

/** A private CA and a server certificate it signs, valid for HOST_NAME and 127.0.0.1. */
function makePki(): Pki {
  const dir = mkdtempSync(join(tmpdir(), 'client-ca-'));
  const at = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const run = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  run(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Repair Test Private CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  run('req', ...ec, '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', `/CN=${HOST_NAME}`);
  writeFileSync(at('ext.cnf'), `subjectAltName=DNS:${HOST_NAME},IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
  run(
    'x509',
    '-req',
    '-in',
    at('server.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('server.pem'),
    '-days',
    '2',
    '-extfile',
    at('ext.cnf'),
  );
  return {
    dir,
    caPem: readFileSync(at('ca.pem'), 'utf8'),
    serverKey: readFileSync(at('server.key'), 'utf8'),
    serverCert: readFileSync(at('server.pem'), 'utf8'),
  };
}

describe.runIf(hasOpenssl)('ca against an https server with a private CA', () => {
  let pki: Pki;
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    pki = makePki();
    server = createServer({ key: pki.serverKey, cert: pki.serverCert }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(envelopeOk([{ id: 1 }])));
    });
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(pki.dir, { recursive: true, force: true });
  });

  const attempt = async (over: { ca?: string | Buffer }) => {
    const client = createClient({ baseUrl, apiKey: KEY, tenant: 'rowery-nowak', maxRetries: 0, logLevel: 'silent', ...over });
    try {
      return await client.list('clients').then(
        (data) => ({ data }),
        (error: unknown) => ({ error }),
      );
    } finally {
      await client.close();
    }
  };

  it('trusts the private CA given as PEM text or a Buffer', async () => {
    expect(await attempt({ ca: pki.caPem })).toEqual({ data: [{ id: 1 }] });
    expect(await attempt({ ca: Buffer.from(pki.caPem) })).toEqual({ data: [{ id: 1 }] });
  });

  it('without the CA the certificate is refused, as a ConnectionError of kind tls_error', async () => {
    const untrusted = await attempt({});
    expect('error' in untrusted && isConnectionError(untrusted.error) && untrusted.error.networkCode).toMatch(
      /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|UNABLE_TO_GET_ISSUER/,
    );
    expect('error' in untrusted && (untrusted.error as { kind: string }).kind).toBe('tls_error');
  });

  it('a PEM that does not parse is refused at createClient, naming the option, never echoing the text', () => {
    const make = (over: object) => () => createClient({ baseUrl, apiKey: KEY, ...over });
    expect(make({ ca: 'not a certificate' })).toThrow(/option "ca" holds no PEM certificate \(-----BEGIN CERTIFICATE-----\)/);
    expect(make({ ca: pki.serverKey })).toThrow(/^option "ca" holds a private key, not a certificate$/);
    const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';
    expect(make({ ca: [pki.caPem, broken] })).toThrow(/option "ca": certificate 2 of 2 does not parse as X\.509/);
    expect(make({ ca: [] })).toThrow(/option "ca" holds no PEM certificate/);
    expect(make({ ca: pki.caPem, baseUrl: 'http://127.0.0.1:1/api/v1' })).toThrow(/option "ca" needs an https baseUrl/);
    expect(make({ ca: pki.caPem, dispatcher: new MockAgent() })).toThrow(/with "dispatcher" given, set it on that dispatcher/);
    try {
      make({ ca: pki.serverKey })();
    } catch (error) {
      expect(String(error)).not.toContain('PRIVATE KEY-----\n');
    }
  });
});
