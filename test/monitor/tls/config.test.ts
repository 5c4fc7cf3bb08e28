/**
 * `tls: { caFile, serverName }` in monitor.yaml: strict like the rest, the CA file read and
 * parsed at load, every problem named by its path. Uses the openssl-made certificate when
 * openssl is there; the error cases need no certificate.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../../monitor/config/load.js';
import { certificateExpiry } from '../../../monitor/probe/agent.js';
import { makeCertificate, opensslPresent } from '../../helpers/tls.js';

const dir = mkdtempSync(join(tmpdir(), 'repairmon-tls-config-'));
const env = { NOWAK_KEY: 'rs_test_abcdefghijklmnop1234' };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function parse(baseUrl: string, tls: string) {
  const text = [
    'targets:',
    '  - name: private',
    `    baseUrl: ${baseUrl}`,
    `    tls: ${tls}`,
    '    keys: [{ alias: nowak-test, kind: tenant, tenant: rowery-nowak, secret: "${NOWAK_KEY}" }]',
  ].join('\n');
  return parseConfigText(text, { env, baseDir: dir });
}

function issues(result: ReturnType<typeof parse>): string[] {
  return result.ok ? [] : result.issues.map((i) => `${i.path}: ${i.message}`);
}

describe('tls config errors, each named by its path', () => {
  it('an unreadable caFile names the resolved path and the reason', () => {
    expect(issues(parse('https://api.internal.example/api/v1', '{ caFile: ./missing-ca.pem }'))).toEqual([
      `targets[0].tls.caFile: cannot read CA file ${dir}/missing-ca.pem (ENOENT)`,
    ]);
  });

  it('a caFile without a PEM certificate, or with a garbled one, is refused at load', () => {
    writeFileSync(join(dir, 'not-pem.txt'), 'hello\n');
    writeFileSync(join(dir, 'garbled.pem'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    expect(issues(parse('https://api.internal.example/api/v1', '{ caFile: not-pem.txt }'))).toEqual([
      `targets[0].tls.caFile: CA file ${dir}/not-pem.txt holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
    ]);
    expect(issues(parse('https://api.internal.example/api/v1', '{ caFile: garbled.pem }'))).toEqual([
      `targets[0].tls.caFile: CA file ${dir}/garbled.pem certificate 1 of 1 does not parse`,
    ]);
  });

  it('is strict: unknown keys, a missing caFile, a bad serverName', () => {
    expect(issues(parse('https://api.internal.example/api/v1', '{ cafile: ca.pem }'))).toEqual([
      'targets[0].tls.caFile: is required',
      'targets[0].tls.cafile: unknown key',
    ]);
    expect(issues(parse('https://api.internal.example/api/v1', '{ caFile: ca.pem, serverName: "https://x/" }'))).toEqual([
      'targets[0].tls.serverName: must be a DNS name such as api.internal.example',
    ]);
  });

  it('tls on an http baseUrl is refused', () => {
    expect(issues(parse('http://127.0.0.1:8080/api/v1', '{ caFile: ca.pem }'))).toEqual([
      'targets[0].tls: `tls` applies only to an https baseUrl',
    ]);
  });
});

describe.skipIf(!opensslPresent('loading a real CA file'))('a valid tls block', () => {
  it('loads the CA text and the serverName into the target', () => {
    const cert = makeCertificate({ commonName: 'repairmon.test', altNames: ['DNS:repairmon.test'], days: 1 });
    try {
      const result = parse('https://127.0.0.1:8443/api/v1', `{ caFile: ${cert.certFile}, serverName: repairmon.test }`);
      if (!result.ok) throw new Error(JSON.stringify(result.issues));
      expect(result.config.targets[0]?.tls).toEqual({ ca: cert.cert, caFile: cert.certFile, serverName: 'repairmon.test' });
    } finally {
      cert.remove();
    }
  });
});

describe('certificateExpiry', () => {
  it("reads Node's valid_to as Unix seconds, and nothing from a missing or odd value", () => {
    expect(certificateExpiry({ valid_to: 'Nov 24 00:19:43 2026 GMT' })).toBe(Date.UTC(2026, 10, 24, 0, 19, 43) / 1000);
    expect(certificateExpiry({})).toBeUndefined();
    expect(certificateExpiry({ valid_to: 'soon' })).toBeUndefined();
    expect(certificateExpiry(undefined)).toBeUndefined();
  });
});
