/**
 * `repairmon probe` against every dialect, through the real CLI: a good key passes, and each
 * real problem (revoked key, another tenant's key, a missing scope) is caught by the right row,
 * whatever status, code, body or header style the dialect answers with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosisReport } from '../../diagnose/index.js';
import { ensureBuilt } from '../helpers/rig.js';
import { type SandboxProcess } from '../helpers/rig.js';
import { PRESETS, dialectSandbox, slugIn, truth } from '../helpers/dialects.js';
import { runMain } from '../helpers/fake-io.js';
import { TENANT_RESOURCES } from '../../api/contract/index.js';

const sandboxes = new Map<string, SandboxProcess>();
beforeAll(async () => {
  ensureBuilt();
  await Promise.all(PRESETS.map(async (p) => sandboxes.set(p, await dialectSandbox(p))));
});
afterAll(async () => Promise.all([...sandboxes.values()].map((s) => s.close())));

async function probe(
  preset: string,
  alias: string,
  tenant?: string,
): Promise<{ code: number; report: DiagnosisReport; stdout: string; stderr: string; key: string }> {
  const sandbox = sandboxes.get(preset)!;
  const { key } = sandbox.key(alias);
  const args = [
    'probe',
    '--base-url',
    sandbox.baseUrl,
    '--key-env',
    'CUSTOMER_KEY',
    '--timeout',
    '5',
    '--json',
    ...(tenant ? ['--tenant', tenant] : []),
  ];
  const run = await runMain(args, { CUSTOMER_KEY: key });
  return { code: run.code, report: JSON.parse(run.stdout) as DiagnosisReport, stdout: run.stdout, stderr: run.stderr, key };
}

const status = (r: DiagnosisReport, check: string): string | undefined => r.checks.find((c) => c.check === check)?.status;

describe.each(PRESETS)('repairmon probe against the %s dialect', (preset) => {
  const nowak = slugIn(truth(preset), 'rowery-nowak');

  it('a good tenant key passes every check, exit 0, and reads as a tenant key', async () => {
    const { code, report } = await probe(preset, 'nowak-test', nowak);
    expect(
      report.checks.filter((c) => c.status === 'fail'),
      JSON.stringify(report.verdict),
    ).toEqual([]);
    expect(code).toBe(0);
    expect(report.key.kind).toBe('tenant');
  });

  it('a platform key is told apart through the /platform/ paths /docs lists, its tenant inferred, exit 0', async () => {
    const { code, report } = await probe(preset, 'platform-test');
    expect(report.key.kind).toBe('platform');
    expect(report.tenant.probed).toBe(nowak);
    expect(code).toBe(0);
  });

  it('a revoked key fails the key row, whatever status and body the dialect gives it', async () => {
    const { code, report } = await probe(preset, 'nowak-revoked-test', nowak);
    expect(status(report, 'key')).toBe('fail');
    expect(report.checks.find((c) => c.check === 'key')?.finding.kind).toBe('unauthorized');
    expect(code).toBe(1);
  });

  it("another tenant's key fails the tenant row with the spec's 403 tenant_key_tenant_mismatch", async () => {
    const { code, report } = await probe(preset, 'kowalski-test', nowak);
    expect(report.checks.find((c) => c.check === 'tenant')).toMatchObject({
      status: 'fail',
      httpStatus: 403,
      errorCode: 'tenant_key_tenant_mismatch',
    });
    expect(code).toBe(1);
  });

  it('a key without the logs scope fails only scope:logs, however the dialect refuses it, and the verdict names the scope', async () => {
    const { code, report, stdout, stderr, key } = await probe(preset, 'nowak-nologs-test', nowak);
    expect(TENANT_RESOURCES.map((r) => status(report, `scope:${r}`))).toEqual(
      TENANT_RESOURCES.map((r) => (r === 'logs' ? 'fail' : 'pass')),
    );
    expect(status(report, 'tenant')).toBe('pass');
    // Issue 20.8: whatever the code (insufficient_scope, forbidden, a hiding not_found), the cause is the scope.
    expect(report.verdict).toMatchObject({
      kind: 'insufficient_scope',
      headline: 'SCOPE MISSING',
      resource: 'logs',
      code: truth(preset).scopeRefusal,
    });
    expect(code).toBe(1);
    expect(stdout + stderr).not.toContain(key);
  });
});
