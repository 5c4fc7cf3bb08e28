/** The lines `repairmon sandbox` prints for a generated project: its variable names, never a `--keys` value. */
import { describe, expect, it } from 'vitest';
import { projectLines } from '../../cli/commands/sandbox-project.js';
import type { DemoKey, RunningSandbox } from '../../sandbox/index.js';
import { TENANT_RESOURCES } from '../../api/contract/index.js';

const key = (alias: string, environment: 'test' | 'production', extra: Partial<DemoKey> = {}): DemoKey =>
  ({
    alias,
    kind: 'tenant',
    tenant: 'rowery-nowak',
    environment,
    scopes: [...TENANT_RESOURCES],
    key: `rs_${environment === 'test' ? 'test' : 'live'}_${alias}_value`,
    ...extra,
  }) as DemoKey;

function sandbox(keys: DemoKey[], ca?: { pem: string; file: string }): RunningSandbox {
  return { baseUrl: 'https://127.0.0.1:4443/api/v1', keys, ...(ca ? { ca } : {}) } as unknown as RunningSandbox;
}

describe('projectLines', () => {
  it('names the project variables; with tls, the production rehearsal with the CA file', () => {
    const text = projectLines(sandbox([key('nowak-test', 'test'), key('nowak-prod', 'production')], { pem: '', file: '/tmp/ca.pem' })).join(
      '\n',
    );
    expect(text).toContain(
      'export REPAIR_API_TEST_BASE_URL=https://127.0.0.1:4443/api/v1 REPAIR_API_TENANT=rowery-nowak REPAIR_API_CA_FILE=/tmp/ca.pem',
    );
    expect(text).toContain('export REPAIR_API_TEST_KEY=rs_test_nowak-test_value     # nowak-test: a throwaway test key');
    expect(text).toContain(
      'export REPAIR_API_ENV=production REPAIR_API_PRODUCTION_BASE_URL=https://127.0.0.1:4443/api/v1 REPAIR_API_CA_FILE=/tmp/ca.pem',
    );
    expect(text).toContain('export REPAIR_API_PRODUCTION_KEY=rs_live_nowak-prod_value     # nowak-prod: a throwaway production key');
  });

  it('a key fixed by --keys is named, never printed', () => {
    const text = projectLines(
      sandbox([key('nowak-test', 'test', { fixed: true }), key('nowak-prod', 'production', { fixed: true })], {
        pem: '',
        file: '/tmp/ca.pem',
      }),
    ).join('\n');
    expect(text).not.toContain('_value');
    expect(text).toContain('export REPAIR_API_TEST_KEY="<the value of nowak-test in your --keys file>"     # nowak-test: from --keys');
    expect(text).toContain('export REPAIR_API_PRODUCTION_KEY="<the value of nowak-prod in your --keys file>"');
  });
});
