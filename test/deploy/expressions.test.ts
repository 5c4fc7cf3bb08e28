/**
 * Every PromQL expression of the rules and the Grafana dashboard, checked against the monitor
 * as it really is: (a) each metric name an expression reads must appear in a real /metrics
 * scrape of the monitor probing the sandbox (or be made by a recording rule), and promtool
 * must parse the dashboard's expressions; (b) a real Prometheus that scraped that monitor
 * must answer each expression without error, evaluate every rule cleanly, and fire the
 * breach alert for the sandbox's isolation-breach fault.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Expression,
  allExpressions,
  dashboardExpressions,
  recordedNames,
  ruleExpressions,
  substituteVariables,
} from './helpers/expressions.js';
import {
  FIXTURE_CERT_DAYS,
  FIXTURE_NARROW_ALIAS,
  type MonitoredSandbox,
  exposedNames,
  startMonitoredSandbox,
} from './helpers/monitor-fixture.js';
import { PROMETHEUS, PROMETHEUS_DIR, PROMTOOL, RULE_FILES, toolPresent } from './helpers/paths.js';
import { type RunningPrometheus, startPrometheus } from '../../bench/lib/prometheus-server.js';
import { metricNames } from './helpers/promql-names.js';
import { runProcess, waitFor } from '../helpers/rig.js';

const hasPromtool = toolPresent(PROMTOOL, 'promtool parsing of the dashboard expressions');
const hasPrometheus = toolPresent(PROMETHEUS, 'the real-Prometheus query test');

/** Series Prometheus makes itself rather than the monitor: `up` (RepairmonMonitorDown) and `ALERTS` (alerts hold while a monitor is away). */
const PROMETHEUS_OWN = new Set(['up', 'ALERTS']);

/**
 * Panels that may legitimately be empty at the instant of the query: the Retry-After hold shows
 * only keys waiting right now, and a key's hold ends between the storm's 429s.
 */
const MAY_BE_EMPTY: RegExp[] = [/"Retry-After hold per key"/];
/** Without openssl the fixture has no TLS target (its helper says so loudly). */
const EMPTY_WITHOUT_TLS: RegExp[] = [/"TLS certificate: days left per target"/];
const CERT_GAUGE = 'repairmon_tls_cert_expiry_timestamp_seconds';

describe('every PromQL expression of the rules and the dashboard', () => {
  let fixture: MonitoredSandbox | undefined;
  let scraped = new Set<string>();
  /**
   * For (b), started as soon as the monitor listens: Prometheus scrapes for the first time some
   * 5 s after it starts (its target discovery sends every 5 s), time that the wait below and the
   * (a) tests would otherwise add. (b) counts only the scrapes after `readyAt`.
   */
  let starting: Promise<RunningPrometheus> | undefined;
  let readyAt = Number.POSITIVE_INFINITY;

  beforeAll(async () => {
    fixture = await startMonitoredSandbox();
    if (hasPrometheus) {
      starting = startPrometheus({ scrapeAddress: fixture.address, jobName: 'repairmon', ruleFiles: RULE_FILES });
      // Its failure is (b)'s to report, when its beforeAll awaits it.
      starting.catch(() => undefined);
    }
    const url = `${fixture.url}/metrics`;
    // Wait until the fixture's faults have shown in the series.
    await waitFor(
      async () => {
        const text = await (await fetch(url)).text();
        scraped = exposedNames(text);
        const tlsReady = !fixture?.tls || scraped.has(CERT_GAUGE);
        return (
          /^repairmon_probes_total\{[^}]*outcome="ok"\} [1-9]/m.test(text) &&
          /^repairmon_scheduler_ticks_skipped_total\{[^}]*\} [1-9]/m.test(text) &&
          tlsReady
        );
      },
      { what: 'a successful probe, a skipped tick and the certificate gauge', everyMs: 250 },
    );
    readyAt = Date.now();
  });
  afterAll(async () => {
    await (await starting?.catch(() => undefined))?.close();
    await fixture?.close();
  });

  it('finds the expressions of every source', () => {
    expect(ruleExpressions().length).toBeGreaterThanOrEqual(15);
    expect(dashboardExpressions().length).toBeGreaterThanOrEqual(30);
    expect(scraped.has('repairmon_probes_total')).toBe(true);
    if (fixture?.tls) expect(scraped.has(CERT_GAUGE), 'the TLS target exports the certificate gauge').toBe(true);
  });

  it('(a) reads only metric names the monitor really exports or a recording rule defines', () => {
    const known = new Set([...scraped, ...recordedNames(), ...PROMETHEUS_OWN]);
    const unknown = allExpressions().flatMap((e) => [...metricNames(e.expr)].filter((n) => !known.has(n)).map((n) => `${e.source}: ${n}`));
    expect(unknown).toEqual([]);
  });

  it('the example prometheus.yml scrapes /metrics only: /probe is a debug view that cannot alert (fresh counters on every request)', () => {
    const example = parse(readFileSync(`${PROMETHEUS_DIR}prometheus.yml`, 'utf8')) as { scrape_configs: Record<string, unknown>[] };
    expect(example.scrape_configs.length).toBeGreaterThan(0);
    expect(example.scrape_configs.filter((j) => (j['metrics_path'] ?? '/metrics') !== '/metrics').map((j) => j['job_name'])).toEqual([]);
  });

  it('(a) the name check fails on a name the monitor does not export', () => {
    const known = new Set([...scraped, ...recordedNames()]);
    const invented = 'repairmon_probe_tls_cert_expiry_timestamp_seconds';
    expect([...metricNames(`${invented} - time() < 86400 * 14`)].filter((n) => !known.has(n))).toEqual([invented]);
  });

  it.skipIf(!hasPromtool)('(a) promtool parses every dashboard expression', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repairmon-dashboard-rules-'));
    try {
      const rules = dashboardExpressions().map((e, i) => ({ record: `dashboard:expr_${i}`, expr: substituteVariables(e.expr) }));
      const file = join(dir, 'dashboard-rules.yml');
      writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules }] }));
      const run = await runProcess(PROMTOOL, ['check', 'rules', file]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain(`SUCCESS: ${rules.length} rules found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe.skipIf(!hasPrometheus)('(b) against a real Prometheus scraping the monitor every second', () => {
    let prometheus: RunningPrometheus | undefined;

    beforeAll(async () => {
      if (!fixture || !starting) throw new Error('the monitor fixture did not start');
      const running = await starting;
      prometheus = running;
      // Four scrapes of the monitor since its faults showed in its series.
      let last = '';
      await waitFor(
        async () => {
          const answer = await running.query('up{job="repairmon"}[1m]');
          last = JSON.stringify(answer);
          const series = answer.status === 'success' ? (answer.data.result[0] as { values?: [number, string][] } | undefined) : undefined;
          return (series?.values ?? []).filter(([seconds]) => seconds * 1000 >= readyAt).length >= 4;
        },
        { what: () => `four scrapes of the monitor after ${new Date(readyAt).toISOString()}: ${last}`, timeoutMs: 30_000, everyMs: 250 },
      );
      await running.waitFor('target_endpoint:repairmon_probe_duration_seconds:p95_rate10m', 20_000);
    }, 60_000);

    it('answers every expression without an error', async () => {
      const failures: string[] = [];
      for (const e of allExpressions()) {
        const answer = await prometheus!.query(e.expr);
        if (answer.status !== 'success') failures.push(`${e.source}: ${answer.errorType}: ${answer.error}`);
      }
      expect(failures).toEqual([]);
    });

    it('gives data for every dashboard panel that this fixture exercises', async () => {
      const empty: Expression[] = [];
      for (const e of dashboardExpressions()) {
        const answer = await prometheus!.query(substituteVariables(e.expr));
        if (answer.status === 'success' && answer.data.result.length === 0) empty.push(e);
      }
      const allowed = [...MAY_BE_EMPTY, ...(fixture?.tls ? [] : EMPTY_WITHOUT_TLS)];
      const unexpected = empty.filter((e) => !allowed.some((pattern) => pattern.test(e.source))).map((e) => e.source);
      expect(unexpected).toEqual([]);
    });

    it('evaluates every recording and alerting rule without an error', async () => {
      await prometheus!.waitFor('count_over_time(target_endpoint:repairmon_probe_success:ratio_rate10m[1m]) >= 2', 15_000);
      const answer = await prometheus!.api<{ data: { groups: { rules: { name: string; health: string; lastError?: string }[] }[] } }>(
        '/api/v1/rules',
      );
      const rules = answer.data.groups.flatMap((g) => g.rules);
      expect(rules.length).toBe(ruleExpressions().length);
      expect(rules.filter((r) => r.health !== 'ok').map((r) => `${r.name}: ${r.health} ${r.lastError ?? ''}`)).toEqual([]);
    });

    it("fires RepairmonTenantIsolationBreach for the sandbox's isolation-breach fault, on the cross_tenant canary", async () => {
      await prometheus!.waitFor('ALERTS{alertname="RepairmonTenantIsolationBreach", alertstate="firing", check="cross_tenant"}', 15_000);
      const answer = await prometheus!.query('ALERTS{alertname="RepairmonTenantIsolationBreach", alertstate="firing"}');
      const checks =
        answer.status === 'success' ? answer.data.result.map((r) => (r as { metric: Record<string, string> }).metric['check']) : [];
      expect(new Set(checks)).toEqual(new Set(['cross_tenant']));
    });

    it(`RepairmonTLSCertificateExpiring goes pending, as a page, for the fixture's ${FIXTURE_CERT_DAYS}-day certificate and no other target`, async (ctx) => {
      if (!fixture?.tls) ctx.skip();
      await prometheus!.waitFor('ALERTS{alertname="RepairmonTLSCertificateExpiring", severity="page", target="sandbox-tls"}', 15_000);
      const answer = await prometheus!.query('count by (target) (ALERTS{alertname="RepairmonTLSCertificateExpiring"})');
      const targets =
        answer.status === 'success' ? answer.data.result.map((r) => (r as { metric: Record<string, string> }).metric['target']) : [];
      expect(targets).toEqual(['sandbox-tls']);
    });

    it("raises RepairmonKeyRejected (pending, then a ticket) for the sandbox's revoked key, and nothing for the key whose refusal its expect names", async () => {
      await prometheus!.waitFor(
        'ALERTS{alertname="RepairmonKeyRejected", key_alias="nowak-revoked-test", class="key", check="read"}',
        15_000,
      );
      await prometheus!.waitFor(
        `repairmon_probe_success{key_alias="${FIXTURE_NARROW_ALIAS}", endpoint="logs", check="expected_refusal"} == 1`,
        15_000,
      );
      const answer = await prometheus!.query('ALERTS{alertname="RepairmonKeyRejected", key_alias!="nowak-revoked-test"}');
      expect(answer.status === 'success' ? answer.data.result : ['query failed']).toEqual([]);
    });
  });
});
