/**
 * The Prometheus side of the ops kit, checked by the real tools: promtool check rules/config and
 * promtool test rules; plus what promtool cannot know: every alert has a firing and a quiet unit
 * test, annotations that name target, tenant and key alias and say the next step, a runbook
 * entry in docs/alerts.md, and the right alerts (only those) silenced by maintenance windows.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readRules, recordedNames } from './helpers/expressions.js';
import { DEPLOY, PROMETHEUS_DIR, PROMTOOL, ROOT, RULE_FILES, toolPresent } from './helpers/paths.js';
import { ruleTestGroups } from './helpers/rule-tests.js';
import { type ProcessRun, runProcess } from '../helpers/rig.js';

const hasPromtool = toolPresent(PROMTOOL, 'promtool check/test of the Prometheus rules');
const TESTS_DIR = `${PROMETHEUS_DIR}tests/`;
const testFiles = readdirSync(TESTS_DIR)
  .filter((f) => f.endsWith('.yml'))
  .sort();
const alerts = readRules(`${PROMETHEUS_DIR}alerting-rules.yml`);
/** One entry per alert name: an alert may have a rule per severity (the certificate's ticket and page). */
const alertNames = [...new Set(alerts.map((a) => a.alert ?? ''))];

const MAINTENANCE_UNLESS = 'unless on (target) (repairmon_maintenance_active == 1)';
/**
 * Never silenced by a maintenance window: security, findings about a key or the config (probes
 * are paused in a window, so silencing would only close and reopen the same ticket), a
 * certificate's clock, and the monitor's own health.
 */
const NEVER_SILENCED = [
  'RepairmonTenantIsolationBreach',
  'RepairmonUnexpectedAccess',
  'RepairmonKeyRejected',
  'RepairmonTenantNotFound',
  'RepairmonTLSCertificateExpiring',
  'RepairmonConfigReloadFailed',
  'RepairmonMonitorDown',
  'RepairmonShardsIncomplete',
];

interface AlertTest {
  readonly alertname: string;
  readonly exp_alerts?: unknown[];
}

let parsedAlertTests: AlertTest[] | undefined;

/** Every `alert_rule_test` case of every file, parsed once for all the alerts that ask (~0.1 s each time). */
function alertTests(): AlertTest[] {
  parsedAlertTests ??= testFiles.flatMap((file) => {
    const doc = parse(readFileSync(`${TESTS_DIR}${file}`, 'utf8')) as { tests: { alert_rule_test?: AlertTest[] }[] };
    return doc.tests.flatMap((t) => t.alert_rule_test ?? []);
  });
  return parsedAlertTests;
}

/** The runbook part of docs/alerts.md: from its `## Runbook` heading to the end. */
function runbookSection(): string {
  const page = readFileSync(`${ROOT}docs/alerts.md`, 'utf8');
  const start = page.search(/^## Runbook$/m);
  return start < 0 ? '' : page.slice(start);
}

/**
 * For `promtool test rules`: Go's collector at a quarter of its default frequency. The test
 * evaluations churn short-lived memory; this cuts promtool's CPU by a fifth (measured: 17.8 ->
 * 14.2 CPU s over three files) for some 250 MB at most, and changes nothing it computes.
 */
const PROMTOOL_TEST = { GOGC: '400' };

/**
 * `promtool test rules` over every file, two promtool processes at a time (each file evaluates
 * the SLO rules' 3-day windows, ~1-6 s of CPU apiece; the machine has 2 cores).
 */
async function testRules(cwd: string, files: readonly string[] = testFiles): Promise<ProcessRun[]> {
  const queue = [...files];
  const runs: ProcessRun[] = [];
  const worker = async (): Promise<void> => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift())
      runs.push(await runProcess(PROMTOOL, ['test', 'rules', file], { cwd, env: PROMTOOL_TEST, timeoutMs: 120_000 }));
  };
  await Promise.all([worker(), worker()]);
  return runs;
}

describe.skipIf(!hasPromtool)('promtool', () => {
  it('check rules: both rule files are clean', async () => {
    const run = await runProcess(PROMTOOL, ['check', 'rules', ...RULE_FILES]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.match(/SUCCESS/g)?.length).toBe(RULE_FILES.length);
    expect(run.stdout + run.stderr).not.toMatch(/WARNING|FAILED/);
  });

  it('check config: the example prometheus.yml and the rule files it loads are valid', async () => {
    const run = await runProcess(PROMTOOL, ['check', 'config', `${PROMETHEUS_DIR}prometheus.yml`]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('is valid prometheus config file syntax');
  });

  it(`test rules: every unit test file passes (${testFiles.length} files)`, async () => {
    const runs = await testRules(TESTS_DIR);
    for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(
      runs
        .map((r) => r.stdout)
        .join('')
        .match(/SUCCESS/g)?.length,
    ).toBe(testFiles.length);
  }, 180_000);

  it('test rules fails when the maintenance silencing is removed (the tests can fail)', async () => {
    const broken = readFileSync(`${PROMETHEUS_DIR}alerting-rules.yml`, 'utf8').replaceAll(MAINTENANCE_UNLESS, '');
    const dir = mkdtempSync(join(tmpdir(), 'repairmon-rules-'));
    try {
      mkdirSync(`${dir}/tests`);
      writeFileSync(`${dir}/alerting-rules.yml`, broken);
      cpSync(`${PROMETHEUS_DIR}recording-rules.yml`, `${dir}/recording-rules.yml`);
      // Of each file only its groups named "... -> silenced" (the others cannot fail on one),
      // the cheapest first, up to the first that fails on it: one is what this proves, and
      // promtool is slow (the smallest whole file took 2-3 s, the cheapest such group 0.2 s).
      const withWindows = testFiles
        .flatMap((file) => {
          const subset = ruleTestGroups(`${TESTS_DIR}${file}`, /silenced/);
          return subset ? [{ file, ...subset }] : [];
        })
        .sort((a, b) => a.evaluations - b.evaluations);
      const runs: ProcessRun[] = [];
      for (const { file, text } of withWindows) {
        writeFileSync(`${dir}/tests/${file}`, text);
        const run = await runProcess(PROMTOOL, ['test', 'rules', file], { cwd: `${dir}/tests`, env: PROMTOOL_TEST, timeoutMs: 120_000 });
        runs.push(run);
        if (run.code !== 0 && /FAILED:\s+name: .*silenced/.test(run.stdout + run.stderr)) break;
      }
      expect(runs.some((r) => r.code !== 0)).toBe(true);
      expect(runs.map((r) => r.stdout + r.stderr).join('')).toMatch(/FAILED:\s+name: .*silenced/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('alerting rules', () => {
  it('cover what an ops team is paged or ticketed for', () => {
    expect(alertNames).toEqual(
      expect.arrayContaining([
        'RepairmonEndpointDown',
        'RepairmonErrorBudgetBurn',
        'RepairmonLatencySLOBreached',
        'RepairmonProbeStale',
        'RepairmonTenantIsolationBreach',
        'RepairmonUnexpectedAccess',
        'RepairmonKeyRejected',
        'RepairmonTenantNotFound',
        'RepairmonRateLimitedLong',
        'RepairmonConfigReloadFailed',
        'RepairmonTLSCertificateExpiring',
      ]),
    );
  });

  it('an expiring TLS certificate is a ticket under 14 days and a page under 3, one alert per target across shards', () => {
    const rules = alerts.filter((a) => a.alert === 'RepairmonTLSCertificateExpiring');
    expect(rules.map((r) => [r.labels?.['severity'], r.labels?.['priority']])).toEqual([
      ['ticket', 'warning'],
      ['page', 'critical'],
    ]);
    expect(rules[0]?.expr).toMatch(/min by \(target\) \(repairmon_tls_cert_expiry_timestamp_seconds\) - time\(\) < 14 \* 86400/);
    expect(rules[1]?.expr).toMatch(/min by \(target\) \(repairmon_tls_cert_expiry_timestamp_seconds\) - time\(\) < 3 \* 86400/);
  });

  it.each(alertNames)('%s has a unit test where it fires and one where it stays quiet', (name) => {
    const tests = alertTests().filter((t) => t.alertname === name);
    expect(tests.filter((t) => (t.exp_alerts ?? []).length > 0).length, 'firing cases').toBeGreaterThan(0);
    expect(tests.filter((t) => (t.exp_alerts ?? []).length === 0).length, 'quiet cases').toBeGreaterThan(0);
  });

  it.each(alertNames)('%s: summary and description name target, tenant and key alias; the description says the next step', (name) => {
    for (const rule of alerts.filter((a) => a.alert === name)) {
      const { summary = '', description = '', runbook = '' } = rule.annotations ?? {};
      for (const text of [summary, description]) {
        expect(text).toMatch(/target/);
        expect(text).toMatch(/tenant/);
        expect(text).toMatch(/key[_ ]alias/);
      }
      expect(description).toMatch(/Next step/);
      expect(runbook).toBe(`docs/alerts.md#runbook, ${name}`);
      expect(['page', 'ticket']).toContain(rule.labels?.['severity']);
    }
  });

  it.each(alertNames)('%s has a runbook entry in docs/alerts.md', (name) => {
    expect(runbookSection()).toMatch(new RegExp(`^#+ .*${name}`, 'm'));
  });

  it('maintenance windows silence the API-health alerts, never security or the monitor itself', () => {
    for (const rule of alerts) {
      if (NEVER_SILENCED.includes(rule.alert ?? '')) expect(rule.expr, rule.alert).not.toContain('repairmon_maintenance_active');
      else expect(rule.expr, rule.alert).toContain(MAINTENANCE_UNLESS);
    }
  });

  it('a tenant-isolation breach pages at once and stays up; an endpoint is down after failureThreshold failures in a row, held past its last one', () => {
    const breach = alerts.find((a) => a.alert === 'RepairmonTenantIsolationBreach')!;
    expect(breach.for ?? '0m').toBe('0m');
    expect(breach.keep_firing_for).toBe('1h');
    expect(breach.labels).toMatchObject({ severity: 'page', priority: 'critical' });
    const down = alerts.find((a) => a.alert === 'RepairmonEndpointDown')!;
    expect(down.expr).toMatch(
      /repairmon_probe_consecutive_failures\{check="read", class="service"\}\s*>= on \(target, job, instance\) group_left\s*repairmon_probe_failure_threshold/,
    );
    expect(down.keep_firing_for).toBeDefined();
    const key = alerts.find((a) => a.alert === 'RepairmonKeyRejected')!;
    expect(key.expr).toMatch(/check="read", class="key"/);
    expect(key.labels?.['severity']).toBe('ticket');
    expect(alerts.find((a) => a.alert === 'RepairmonTenantNotFound')!.labels).toMatchObject({ severity: 'ticket', team: 'support' });
    expect(alerts.find((a) => a.alert === 'RepairmonUnexpectedAccess')!.labels).toMatchObject({ severity: 'ticket', team: 'security' });
  });

  it('the error budget burns as in the SRE workbook: page 14.4x over 1h and 5m; ticket 6x over 6h and 30m, 3x over 1d and 2h or 1x over 3d and 6h; each long window weighted by the share of it with data', () => {
    const burn = alerts.filter((a) => a.alert === 'RepairmonErrorBudgetBurn');
    expect(burn.map((r) => r.labels?.['severity'])).toEqual(['page', 'ticket']);
    const windows = (expr: string) =>
      [
        ...expr.matchAll(
          /repairmon:probe_errors:ratio_rate(\w+)(?: \* on \(target, endpoint\) repairmon:probe_history:ratio(\w+))? > on \(target, endpoint\) \(?(?:([\d.]+) \* )?repairmon:probe_error_budget:ratio/g,
        ),
      ].map((m) => `${m[1]}@${m[3] ?? '1'}${m[2] ? ` x history ${m[2]}` : ''}`);
    expect(windows(burn[0]!.expr)).toEqual(['5m@14.4', '1h@14.4 x history 1h']);
    expect(windows(burn[1]!.expr)).toEqual(['30m@6', '6h@6 x history 6h', '2h@3', '1d@3 x history 1d', '6h@1', '3d@1 x history 3d']);
    const recorded = [...recordedNames()]
      .filter((n) => n.startsWith('repairmon:probe_errors:ratio_rate'))
      .map((n) => n.replace('repairmon:probe_errors:ratio_rate', ''));
    expect(recorded.sort()).toEqual(['1d', '1h', '2h', '30m', '3d', '5m', '6h']);
  });

  it('a monitor that cannot be scraped resolves nothing: every alert but RepairmonMonitorDown and RepairmonShardsIncomplete holds its firing self while a monitor of its target (or instance) is away; MonitorDown pages after a minute', () => {
    // Not the two about the monitors themselves: a replica away is what they report.
    for (const rule of alerts.filter((a) => a.alert !== 'RepairmonMonitorDown' && a.alert !== 'RepairmonShardsIncomplete')) {
      const on = rule.alert === 'RepairmonConfigReloadFailed' ? 'instance' : 'target';
      expect(rule.expr, `${rule.alert} ${rule.labels?.['severity']}`).toContain(
        `or max without (alertstate) (ALERTS{alertname="${rule.alert}", severity="${rule.labels?.['severity']}", alertstate="firing"} and on (${on}) repairmon:unwatched_targets:up)`,
      );
    }
    expect(alerts.find((a) => a.alert === 'RepairmonMonitorDown')!.for).toBe('1m');
  });

  it('pages are grouped per target: a whole-target outage is one page that later endpoints join', () => {
    const config = parse(readFileSync(`${DEPLOY}alertmanager/alertmanager.yml`, 'utf8')) as {
      route: { routes: { matchers: string[]; group_by?: string[] }[] };
    };
    expect(config.route.routes.find((r) => r.matchers.includes('severity = "page"'))?.group_by).toEqual(['target']);
  });

  it('the Alertmanager example routes and inhibits only alerts that exist', () => {
    const text = readFileSync(`${DEPLOY}alertmanager/alertmanager.yml`, 'utf8');
    const referenced = [...text.matchAll(/alertname\s*=~?\s*\\?"([^"\\]+)\\?"/g)].flatMap((m) => (m[1] ?? '').split('|'));
    expect(referenced.length).toBeGreaterThan(3);
    expect(referenced.filter((n) => !alertNames.includes(n))).toEqual([]);
  });

  it('Alertmanager never inhibits an alert that outlives its source (it would be sent only when the source resolves: a ticket after every recovery)', () => {
    const config = parse(readFileSync(`${DEPLOY}alertmanager/alertmanager.yml`, 'utf8')) as {
      inhibit_rules: { target_matchers: string[] }[];
    };
    const targets = config.inhibit_rules.flatMap((r) => r.target_matchers).join(' ');
    for (const name of ['RepairmonErrorBudgetBurn', 'RepairmonLatencySLOBreached', 'RepairmonRateLimitedLong'])
      expect(targets).not.toContain(name);
  });
});
