/**
 * `repairmon probe` end to end against the real sandbox, one test per diagnosis: the built CLI
 * as a child process for a run of each exit code and for the table and terminal forms, the
 * CLI's entry in this process for the other JSON reports. Every emitted curl line is run
 * through bash and must get the same status, and no output may contain the key's value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import type { DiagnosisReport } from '../../diagnose/index.js';
import { main } from '../../cli/index.js';
import { fakeIo, runMain } from '../helpers/fake-io.js';
import { type ProcessRun, closedPort, ensureBuilt, runCli, runProcess } from '../helpers/rig.js';
import { runOnTerminal } from '../helpers/terminal.js';
import { scriptAvailable } from '../helpers/tools.js';

const hasScript = (): boolean => scriptAvailable('the terminal (hidden key input) probe test');

let sandbox: RunningSandbox;
/** What every run printed, searched for the key at the end. */
type Output = Pick<ProcessRun, 'code' | 'stdout' | 'stderr'>;
const outputs: { alias: string; key: string; run: Output }[] = [];

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startSandbox({ rateLimit: '1000/1m' });
});
afterAll(async () => {
  await sandbox?.close();
});

/** A child process when `child`, else in this process. */
async function probe(
  alias: string,
  args: readonly string[],
  faults = '',
  child = false,
): Promise<{ run: Output; report: DiagnosisReport }> {
  sandbox.setFaults(faults);
  const key = sandbox.key(alias).key;
  const argv = ['probe', '--key-env', 'CUSTOMER_KEY', '--timeout', '5', '--json', ...args];
  const run = child ? await runCli(argv, { env: { CUSTOMER_KEY: key } }) : await runMain(argv, { CUSTOMER_KEY: key }, '');
  outputs.push({ alias, key, run });
  let report: DiagnosisReport;
  try {
    report = JSON.parse(run.stdout) as DiagnosisReport;
  } catch {
    throw new Error(`not JSON (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  }
  return { run, report };
}

/** Runs one emitted curl line through bash: the status of the final response. */
async function runCurl(line: string, key: string): Promise<number | undefined> {
  const run = await runProcess('bash', ['-c', line], { env: { REPAIR_API_KEY: key } });
  const status = /^HTTP\/[\d.]+ (\d{3})/m.exec(run.stdout)?.[1];
  return status === undefined ? undefined : Number(status);
}

/** Runs every curl line the report emits, with the faults still in place. */
async function curlsAgree(report: DiagnosisReport, key: string): Promise<number> {
  const rows = report.checks.filter((r) => r.curl !== undefined && r.httpStatus !== undefined);
  for (const row of rows) expect(await runCurl(row.curl!, key), `${row.check}: ${row.curl}`).toBe(row.httpStatus);
  return rows.length;
}

const row = (r: DiagnosisReport, check: string) => r.checks.find((c) => c.check === check)!;
const widest = (text: string): number => Math.max(...text.split('\n').map((l) => l.length));
/** A wrapped line of the table's footer, joined again: its first line starts with `start`, the rest are indented. */
function paragraph(text: string, start: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith(start));
  if (at < 0) throw new Error(`no line starts with ${start}: ${text}`);
  const rest = lines.slice(at + 1);
  const end = rest.findIndex((l) => !l.startsWith('  '));
  return [lines[at]!, ...rest.slice(0, end < 0 ? rest.length : end).map((l) => l.trim())].join(' ');
}

describe('repairmon probe against the sandbox', () => {
  it('good tenant key: every check passes, exit 0', async () => {
    const { run, report } = await probe('nowak-test', ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak'], '', true);
    expect(run.code).toBe(0);
    expect(report.verdict.kind).toBe('ok');
    expect(report.key).toMatchObject({ kind: 'tenant', environment: 'test' });
    expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(row(report, 'rate-limit').explanation).toMatch(/limit 1000, remaining \d+/);
    expect(row(report, 'path').requestId).toBeTruthy();
  });

  it('good platform key: told apart by /platform/, a tenant inferred from its listing', async () => {
    const { run, report } = await probe('platform-test', ['--base-url', sandbox.baseUrl]);
    expect(run.code).toBe(0);
    expect(report.key.kind).toBe('platform');
    expect(report.tenant.probed).toBe(sandbox.tenants[0]);
    expect(row(report, 'platform:tenants').status).toBe('pass');
  });

  it('revoked key: key rejected (step 2), unauthorized with the Polish message and its English meaning', async () => {
    const { run, report } = await probe(
      'nowak-revoked-test',
      ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak', '--auth', 'x-api-key'],
      '',
      true,
    );
    expect(run.code).toBe(1);
    expect(report.verdict).toMatchObject({ kind: 'unauthorized', headline: 'KEY REJECTED', evidence: { step: 'key', check: 'key' } });
    const accepted = row(report, 'key');
    expect(accepted).toMatchObject({ httpStatus: 401, errorCode: 'unauthorized' });
    expect(accepted.serverMessage).toMatch(/klucz/i);
    expect(accepted.explanation).toContain('not accepted');
    expect(accepted.curl).toContain('"x-api-key: $REPAIR_API_KEY"');
    expect(await curlsAgree(report, sandbox.key('nowak-revoked-test').key)).toBeGreaterThan(0);
  });

  it("another tenant's key: tenant mismatch (step 3), both slugs when the URL and --tenant differ", async () => {
    const url = `${sandbox.baseUrl}/tenants/serwis-kowalski/bikes`;
    const { run, report } = await probe('nowak-test', ['--base-url', url, '--tenant', 'rowery-nowak']);
    expect(run.code).toBe(1);
    expect(report.verdict).toMatchObject({
      kind: 'tenant_mismatch',
      urlTenant: 'serwis-kowalski',
      keyTenant: 'rowery-nowak',
      evidence: { step: 'tenant' },
    });
    const tenant = row(report, 'tenant');
    expect(tenant).toMatchObject({ httpStatus: 403, errorCode: 'tenant_key_tenant_mismatch' });
    expect(tenant.explanation).toContain('"serwis-kowalski"');
    expect(tenant.explanation).toContain('"rowery-nowak"');
    expect(await curlsAgree(report, sandbox.key('nowak-test').key)).toBeGreaterThan(0);
  });

  it('narrow-scope key: scope missing (step 4) names what it may and may not read', async () => {
    const { run, report } = await probe('nowak-nologs-test', ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak']);
    expect(run.code).toBe(1);
    expect(report.verdict).toMatchObject({ kind: 'insufficient_scope', evidence: { step: 'scope', check: 'scope:logs' } });
    expect(row(report, 'scope:logs').explanation).toBe("the key's scope does not include logs (it may read clients, bikes, repairs)");
    expect(['clients', 'bikes', 'repairs'].map((r) => row(report, `scope:${r}`).status)).toEqual(['pass', 'pass', 'pass']);
    expect(await curlsAgree(report, sandbox.key('nowak-nologs-test').key)).toBe(1);
  });

  it('wrong base path: not the API (step 1), the path and the 404s', async () => {
    const { run, report } = await probe('nowak-test', ['--base-url', `${sandbox.origin}/api`, '--tenant', 'rowery-nowak']);
    expect(run.code).toBe(1);
    expect(report.verdict).toMatchObject({ kind: 'not_found', notApi: 'base_path', evidence: { step: 'host', check: 'base-path' } });
    expect(row(report, 'path')).toMatchObject({ status: 'fail', httpStatus: 404, errorCode: 'not_found' });
    expect(await curlsAgree(report, sandbox.key('nowak-test').key)).toBeGreaterThan(0);
  });

  it('host down: host unreachable (refused at step 1), the rest not run', async () => {
    const port = await closedPort();
    const { run, report } = await probe('nowak-test', ['--base-url', `http://127.0.0.1:${port}/api/v1`, '--tenant', 'rowery-nowak']);
    expect(run.code).toBe(1);
    expect(report.verdict).toMatchObject({ kind: 'connection_error', how: 'refused', evidence: { step: 'host', check: 'host' } });
    expect(row(report, 'host').explanation).toContain('connection refused');
    expect(row(report, 'scope:logs').status).toBe('skip');
  });

  it('https against a plain-HTTP port: a TLS failure at step 1', async () => {
    const { report } = await probe('nowak-test', ['--base-url', `https://127.0.0.1:${sandbox.port}/api/v1`]);
    expect(row(report, 'host').finding.kind).toBe('tls_error');
    expect(report.verdict).toMatchObject({ kind: 'tls_error', headline: 'HOST UNREACHABLE' });
    expect(row(report, 'host').explanation).toContain('does not speak HTTPS');
  });

  it('429 storm: rate limited with Retry-After, curl sees the same 429', async () => {
    const { run, report } = await probe('nowak-test', ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak'], 'rate-limit-storm:3');
    expect(run.code).toBe(1);
    expect(report.verdict).toMatchObject({ kind: 'rate_limited', retryAfterS: 3 });
    expect(report.verdict.summary).toContain('retry after 3 s');
    expect(row(report, 'rate-limit')).toMatchObject({ status: 'fail', httpStatus: 429 });
    expect(await curlsAgree(report, sandbox.key('nowak-test').key)).toBeGreaterThan(0);
  });

  it("HTML 502: a proxy's page, not the key", async () => {
    const { run, report } = await probe('nowak-test', ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak'], 'html-502');
    expect(run.code).toBe(1);
    expect(report.verdict).toMatchObject({ kind: 'server_error', status: 502, html: true, evidence: { step: 'host', check: 'path' } });
    expect(row(report, 'path').explanation).toMatch(/HTML page: a proxy or gateway/);
    expect(await curlsAgree(report, sandbox.key('nowak-test').key)).toBeGreaterThan(0);
  });

  it('a broken envelope on one resource, the base URL answering as the API: BROKEN ANSWER to escalate, not NOT THE API', async () => {
    const { run, report } = await probe(
      'nowak-test',
      ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak'],
      'broken-envelope@/tenants/*/repairs',
    );
    expect(run.code).toBe(1);
    expect(report.verdict).toMatchObject({ kind: 'invalid_envelope', status: 200, notApi: null, evidence: { check: 'scope:repairs' } });
    expect(report.verdict.headline).toBe('BROKEN ANSWER');
    expect(report.verdict.next).toMatch(
      /^escalate to the API on-call: \/api\/v1\/tenants\/rowery-nowak\/repairs answered without the API's envelope/,
    );
    // GET / broken while tenant paths answer with the envelope: the same (no path at the base URL
    // answering with it stays NOT THE API: verdict.test.ts).
    const index = await probe('nowak-test', ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak'], 'broken-envelope@/');
    expect(index.report.verdict.headline, index.report.verdict.summary).toBe('BROKEN ANSWER');
  });

  it('/docs alone an HTML 502: the key works (OK, exit 0), and a docs WARN row and the summary name the failing /docs', async () => {
    const { run, report } = await probe('nowak-test', ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak'], 'html-502@/docs');
    expect(run.code).toBe(0);
    expect(report.verdict.kind).toBe('ok');
    expect(report.verdict.summary).toMatch(/; but \/docs failed \(HTTP 502\): see the docs row$/);
    expect(report.verdict.next).toMatch(/report the failing \/docs to the API on-call$/);
    expect(row(report, 'docs')).toMatchObject({ status: 'warn', httpStatus: 502 });
    expect(row(report, 'docs').explanation).toMatch(
      /^GET \/docs gave HTTP 502 with an HTML page: a proxy or gateway in front of it failed/,
    );
    // A healthy /docs adds no row.
    const healthy = await probe('nowak-test', ['--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak']);
    expect(healthy.report.checks.some((c) => c.check === 'docs')).toBe(false);
  });

  it("prints the table when not --json: within 100 columns, another tenant's key gets no row that reads against the verdict", async () => {
    sandbox.setFaults('');
    const key = sandbox.key('kowalski-test').key;
    const run = await runCli(['probe', '--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak', '--key-stdin'], { stdin: `${key}\n` });
    outputs.push({ alias: 'kowalski-test', key, run });
    expect(run.code).toBe(1);
    expect(widest(run.stdout)).toBeLessThanOrEqual(100);
    expect(run.stdout).toMatch(/^FAIL\s+tenant\s+403\s+tenant_key_tenant_mismatch: /m);
    // The key row passes on a 403 only a known key gets: it says so, never "the API accepts the key".
    expect(run.stdout).toMatch(/^PASS\s+key\s+403\s+the key is valid: the API gives HTTP 403 tenant_key_tenant_mismatch/m);
    expect(run.stdout).not.toContain('the API accepts the key');
    expect(paragraph(run.stdout, 'TENANT MISMATCH: ')).toMatch(/^TENANT MISMATCH: .*step 3 \(tenant\), check tenant\]$/);
    expect(paragraph(run.stdout, 'Next: ')).toMatch(/^Next: ask which shop the key was issued for/);
    expect(run.stdout).toMatch(/^Requests: 8 sent \(at most 10 per run\), no wait$/m);
    expect(run.stdout).toContain('-H "authorization: Bearer $REPAIR_API_KEY"');
    expect(run.stdout).toContain(`key …${key.slice(-4)}`);
    expect(run.stderr).toBe('');
  });

  it('a rejected key: checks not run show only why, and no rate-limit warning the run could not have checked', async () => {
    sandbox.setFaults('');
    const key = sandbox.key('nowak-revoked-test').key;
    const run = await runCli(['probe', '--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak', '--key-env', 'K'], { env: { K: key } });
    outputs.push({ alias: 'nowak-revoked-test', key, run });
    expect(widest(run.stdout)).toBeLessThanOrEqual(100);
    const skipped = run.stdout.split('\n').filter((l) => l.startsWith('SKIP'));
    expect(skipped.map((l) => l.split(/\s+/)[1])).toEqual(
      expect.arrayContaining(['tenant', 'scope:clients', 'scope:bikes', 'scope:repairs', 'scope:logs', 'rate-limit']),
    );
    for (const line of skipped) expect(line).toMatch(/^SKIP\s+\S+\s+-\s+not run: /);
    expect(run.stdout).not.toMatch(/^WARN/m);
    expect(paragraph(run.stdout, 'KEY REJECTED: ')).toMatch(/step 2 \(key accepted\), check key\]$/);
    // --wide: every column, latency, request ids and trace ids included.
    const wide = await runCli(['probe', '--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak', '--key-env', 'K', '--wide'], {
      env: { K: key },
    });
    outputs.push({ alias: 'nowak-revoked-test --wide', key, run: wide });
    expect(wide.stdout).toMatch(/^FAIL\s+2 key\s+key\s+401\s+unauthorized\s+\d+ ms\s+[0-9a-f-]{36}\s+[0-9a-f]{32}\s+Nieprawid/m);
    expect(widest(wide.stdout)).toBeGreaterThan(100);
  });

  it('on a terminal the table fits its width', async () => {
    sandbox.setFaults('');
    const key = sandbox.key('nowak-test').key;
    const io = fakeIo();
    Object.assign(io.stdout, { isTTY: true, columns: 72 });
    const code = await main(['probe', '--base-url', sandbox.baseUrl, '--tenant', 'rowery-nowak', '--key-env', 'K'], {
      ...io,
      env: { K: key },
    });
    outputs.push({ alias: 'nowak-test (72 columns)', key, run: { code, stdout: io.stdoutText(), stderr: io.stderrText() } });
    expect(code).toBe(0);
    expect(widest(io.stdoutText())).toBeLessThanOrEqual(72);
    expect(paragraph(io.stdoutText(), 'OK: ')).toMatch(
      /^OK: tenant key …\S{4} works against .* reads clients, bikes, repairs, logs of tenant rowery-nowak$/,
    );
  });

  it.skipIf(!hasScript())('on a terminal: asks for the key with hidden input and shows progress', async () => {
    sandbox.setFaults('');
    const key = sandbox.key('gdansk-test').key;
    const terminal = await runOnTerminal(
      ['probe', '--base-url', sandbox.baseUrl, '--tenant', 'cykl-gdansk'],
      [['input hidden', `${key}\r`]],
    );
    const run: Output = { code: terminal.code ?? 1, stdout: terminal.text, stderr: '' };
    outputs.push({ alias: 'gdansk-test (terminal)', key, run });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('API key (input hidden): ');
    expect(run.stdout).toContain('probing [');
    expect(run.stdout).toMatch(/OK: tenant key …\S{4} works/);
  });

  it('a platform key and a wrong --platform-path: its kind is undetermined, never called a tenant key (20.9)', async () => {
    const { run, report } = await probe('platform-test', [
      '--base-url',
      sandbox.baseUrl,
      '--tenant',
      'rowery-nowak',
      '--platform-path',
      'shops',
    ]);
    expect(run.code).toBe(0);
    expect(report.key.kind).toBe('unknown');
    expect(row(report, 'platform:shops')).toMatchObject({ status: 'warn', httpStatus: 404, finding: { kind: 'key_kind_unknown' } });
    expect(row(report, 'platform:shops').explanation).toContain(
      '/docs does not list that path: a wrong path answers so, and so does an API that hides /platform/ from tenant keys',
    );
  });

  it("a missing scope the dialect refuses as 403 forbidden: SCOPE MISSING for logs, with the server's code (20.8)", async () => {
    const forbidding = await startSandbox({ rateLimit: '1000/1m', dialect: 'reference,scope-refusal=forbidden' });
    try {
      const key = forbidding.key('nowak-nologs-test').key;
      const run = await runCli(['probe', '--base-url', forbidding.baseUrl, '--tenant', 'rowery-nowak', '--key-env', 'K', '--json'], {
        env: { K: key },
      });
      outputs.push({ alias: 'nowak-nologs-test (scope-refusal=forbidden)', key, run });
      const report = JSON.parse(run.stdout) as DiagnosisReport;
      expect(report.verdict).toMatchObject({
        kind: 'insufficient_scope',
        headline: 'SCOPE MISSING',
        resource: 'logs',
        readable: ['clients', 'bikes', 'repairs'],
        status: 403,
        code: 'forbidden',
      });
      expect(report.verdict.summary).toContain('refused with HTTP 403 forbidden');
      expect(report.verdict.summary).not.toContain('unknown error code');
    } finally {
      await forbidding.close();
    }
  });

  it('never prints the key: stdout, stderr and JSON of every run above', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(10);
    for (const { alias, key, run } of outputs) {
      expect(run.stdout.includes(key), `${alias} stdout`).toBe(false);
      expect(run.stderr.includes(key), `${alias} stderr`).toBe(false);
    }
  });
});
