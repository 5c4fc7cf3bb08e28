/**
 * The situations support met, each against the real sandbox through the CLI's entry in this
 * process (probe.sandbox.test.ts runs the built CLI as a child process): the headline names
 * what went wrong (not the step where it showed) and the exit code is right.
 * The probe must also not make things worse: under a quota it stops at the first 429, and a
 * broken or hanging /docs never hides a rejected key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_BUDGET } from '../../diagnose/engine.js';
import type { DiagnosisReport } from '../../diagnose/verdict.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { type MainRun, runMain } from '../helpers/fake-io.js';
import { closedPort } from '../helpers/rig.js';

let sandbox: RunningSandbox;
const runs: { name: string; key: string; run: MainRun }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: '1000/1m' });
});
afterAll(async () => {
  await sandbox?.close();
});

async function probe(
  on: RunningSandbox,
  name: string,
  alias: string,
  args: readonly string[],
): Promise<{ run: MainRun; report: DiagnosisReport }> {
  const key = on.key(alias).key;
  const run = await runMain(['probe', '--key-env', 'CUSTOMER_KEY', '--json', ...args], { CUSTOMER_KEY: key }, '');
  runs.push({ name, key, run });
  try {
    return { run, report: JSON.parse(run.stdout) as DiagnosisReport };
  } catch {
    throw new Error(`${name}: not JSON (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  }
}

interface Situation {
  readonly name: string;
  readonly alias: string;
  readonly args: (s: RunningSandbox) => Promise<string[]> | string[];
  readonly faults?: string;
  readonly headline: string;
  readonly exit: 0 | 1;
  /** More assertions; `seen` is what the sandbox received during this run. */
  readonly then?: (report: DiagnosisReport, seen: ReturnType<RunningSandbox['requests']>) => void;
}

const base = (s: RunningSandbox) => ['--base-url', s.baseUrl];
const nowak = (s: RunningSandbox) => [...base(s), '--tenant', 'rowery-nowak'];
const check = (r: DiagnosisReport, id: string) => r.checks.find((c) => c.check === id)!;

const SITUATIONS: readonly Situation[] = [
  {
    name: '429 storm',
    alias: 'nowak-test',
    args: nowak,
    faults: 'rate-limit-storm:3',
    headline: 'RATE LIMITED',
    exit: 1,
    then: (r, seen) => {
      expect(r.verdict).toMatchObject({ kind: 'rate_limited', retryAfterS: 3, stopped: 'still_limited' });
      expect(r.traffic).toMatchObject({ requestsSent: 2, waitedMs: 3000, waits: [{ check: 'docs', ms: 3000, source: 'retry-after' }] });
      expect(seen.map((q) => `${q.path} ${q.status}`)).toEqual(['/api/v1/docs 429', '/api/v1/docs 429']);
      expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(2900);
    },
  },
  {
    name: 'partial HTML 502 (bikes only)',
    alias: 'nowak-test',
    args: nowak,
    faults: 'html-502@/tenants/*/bikes',
    headline: 'SERVER ERROR',
    exit: 1,
    then: (r) => {
      expect(r.verdict).toMatchObject({ kind: 'server_error', status: 502, html: true, evidence: { check: 'scope:bikes', step: 'scope' } });
      expect(['key', 'tenant', 'scope:clients', 'scope:repairs', 'scope:logs'].map((id) => check(r, id).status)).toEqual([
        'pass',
        'pass',
        'pass',
        'pass',
        'pass',
      ]);
    },
  },
  {
    name: 'partial 502 envelope (logs only)',
    alias: 'nowak-test',
    args: nowak,
    faults: 'status:502@/tenants/*/logs',
    headline: 'SERVER ERROR',
    exit: 1,
    then: (r) => expect(r.verdict).toMatchObject({ kind: 'server_error', status: 502, html: false, evidence: { check: 'scope:logs' } }),
  },
  {
    name: 'narrow-scope key without --tenant',
    alias: 'nowak-nologs-test',
    args: base,
    headline: 'NOT CHECKED',
    exit: 1,
    then: (r) => {
      expect(r.verdict).toMatchObject({ kind: 'incomplete', reason: 'no_tenant', keyKind: 'tenant' });
      expect(r.verdict.next).toContain('--tenant SLUG');
      expect(check(r, 'tenant').explanation).toContain('pass --tenant SLUG, the shop the key was issued for');
    },
  },
  {
    name: 'narrow-scope key with --tenant',
    alias: 'nowak-nologs-test',
    args: nowak,
    headline: 'SCOPE MISSING',
    exit: 1,
    then: (r) =>
      expect(r.verdict).toMatchObject({ kind: 'insufficient_scope', resource: 'logs', readable: ['clients', 'bikes', 'repairs'] }),
  },
  {
    name: 'revoked key behind an HTML 502 /docs',
    alias: 'nowak-revoked-test',
    args: nowak,
    faults: 'html-502@/docs',
    headline: 'KEY REJECTED',
    exit: 1,
    then: (r) => {
      expect(check(r, 'host')).toMatchObject({ status: 'pass', httpStatus: 502 });
      expect(r.verdict).toMatchObject({ kind: 'unauthorized', evidence: { check: 'key', httpStatus: 401, errorCode: 'unauthorized' } });
    },
  },
  {
    name: 'revoked key behind a hanging /docs',
    alias: 'nowak-revoked-test',
    args: (s) => [...nowak(s), '--timeout', '1'],
    faults: 'latency:5000@/docs',
    headline: 'KEY REJECTED',
    exit: 1,
    then: (r) => {
      // /docs timed out after 1 s; the run went on to every keyed call.
      expect(r.traffic).toMatchObject({ stopped: null, requestsSent: 7, notRun: [] });
      expect(r.verdict).toMatchObject({ kind: 'unauthorized', evidence: { check: 'key', httpStatus: 401 } });
    },
  },
  {
    name: 'wrong base path',
    alias: 'nowak-test',
    args: (s) => ['--base-url', `${s.origin}/api`, '--tenant', 'rowery-nowak'],
    headline: 'NOT THE API',
    exit: 1,
    then: (r) => expect(r.verdict).toMatchObject({ kind: 'not_found', notApi: 'base_path' }),
  },
  {
    name: 'host down',
    alias: 'nowak-test',
    args: async () => ['--base-url', `http://127.0.0.1:${await closedPort()}/api/v1`, '--tenant', 'rowery-nowak'],
    headline: 'HOST UNREACHABLE',
    exit: 1,
    then: (r) => expect(r.verdict).toMatchObject({ kind: 'connection_error', how: 'refused' }),
  },
  {
    name: "another tenant's key",
    alias: 'kowalski-test',
    args: nowak,
    headline: 'TENANT MISMATCH',
    exit: 1,
    then: (r) => expect(r.verdict).toMatchObject({ kind: 'tenant_mismatch', urlTenant: 'rowery-nowak' }),
  },
  {
    name: 'good tenant key',
    alias: 'nowak-test',
    args: nowak,
    headline: 'OK',
    exit: 0,
    then: (r) => expect(r.traffic).toMatchObject({ requestsSent: 8, waitedMs: 0, notRun: [] }),
  },
  {
    name: 'good platform key without --tenant',
    alias: 'platform-test',
    args: base,
    headline: 'OK',
    exit: 0,
    then: (r) => expect(r.tenant).toMatchObject({ probed: 'rowery-nowak', source: 'platform' }),
  },
];

describe('situations: headline and exit code', () => {
  it.each(SITUATIONS.map((s) => [s.name, s] as const))('%s', async (_name, situation) => {
    sandbox.setFaults(situation.faults ?? '');
    sandbox.clearRequests();
    const { run, report } = await probe(sandbox, situation.name, situation.alias, await situation.args(sandbox));
    expect(report.verdict.headline).toBe(situation.headline);
    expect(report.verdict.summary.startsWith(`${situation.headline}: `)).toBe(true);
    expect(run.code).toBe(situation.exit);
    expect(report.exitCode).toBe(situation.exit);
    expect(report.traffic.requestsSent).toBeLessThanOrEqual(REQUEST_BUDGET);
    situation.then?.(report, sandbox.requests());
  });
});

describe('a 3 requests/minute quota', () => {
  let limited: RunningSandbox;
  beforeAll(async () => {
    limited = await startSandbox({ rateLimit: '3/1m' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('the probe stops at the first 429 instead of causing more, and a second run sends one keyed request', async () => {
    const first = await probe(limited, 'quota 3/1m', 'nowak-test', nowak(limited));
    expect(first.report.verdict).toMatchObject({
      kind: 'rate_limited',
      headline: 'RATE LIMITED',
      stopped: 'too_long',
      // A 429 on one resource says nothing of the key's scope: the rate-limit check holds it.
      evidence: { check: 'rate-limit', url: expect.stringMatching(/\/tenants\/rowery-nowak\/logs$/), httpStatus: 429 },
    });
    expect(first.report.verdict.summary).toMatch(/^RATE LIMITED: retry after \d+ s; longer than the probe waits/);
    expect(first.run.code).toBe(1);
    const seen = limited.requests();
    expect(seen.map((r) => r.status)).toEqual([200, 200, 200, 200, 429]);
    expect(first.report.traffic.requestsSent).toBe(seen.length);
    expect(first.report.traffic.notRun).toEqual(['platform:tenants', 'clients:other-header', 'index']);

    limited.clearRequests();
    const second = await probe(limited, 'quota 3/1m again', 'nowak-test', nowak(limited));
    expect(second.report.verdict).toMatchObject({ kind: 'rate_limited', evidence: { check: 'key' } });
    expect(limited.requests().map((r) => `${r.path} ${r.status}`)).toEqual([
      '/api/v1/docs 200',
      '/api/v1/tenants/rowery-nowak/clients 429',
    ]);
  });
});

describe('secrets', () => {
  it('no run printed its key', () => {
    expect(runs.length).toBeGreaterThanOrEqual(SITUATIONS.length);
    for (const { name, key, run } of runs) {
      expect(run.stdout.includes(key), `${name} stdout`).toBe(false);
      expect(run.stderr.includes(key), `${name} stderr`).toBe(false);
    }
  });
});
