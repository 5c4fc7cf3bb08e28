/**
 * The time compression of the alert-latency stack: every duration in the shipped rules and
 * routing divided by one factor, nothing else touched; and its summary rows.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { AlertStackResult, FaultMeasurement } from '../../bench/lib/alert-measure.js';
import { packageRoot } from '../../lib/index.js';
import {
  formatPromDuration,
  parsePromDuration,
  scaleAlertmanager,
  scaleDuration,
  scaleExpr,
  scaleRules,
} from '../../bench/lib/rule-scaling.js';
import { alertRows } from '../../bench/lib/summary.js';

const deploy = `${packageRoot()}/deploy/`;

describe('Prometheus durations', () => {
  it('parse and format, compound units included', () => {
    expect(parsePromDuration('1h30m')).toBe(5_400_000);
    expect(parsePromDuration('250ms')).toBe(250);
    expect(parsePromDuration('3d')).toBe(259_200_000);
    expect(parsePromDuration('soon')).toBeUndefined();
    expect(formatPromDuration(8_640_000)).toBe('144m');
    expect(formatPromDuration(333.33)).toBe('333ms');
    expect(formatPromDuration(0)).toBe('0s');
  });

  it('divides by the factor: the default 30 s schedule to 1 s', () => {
    expect(['5m', '1h', '1d', '3d', '10s', '0m', '1h'].map((d) => scaleDuration(d, 30))).toEqual([
      '10s',
      '2m',
      '48m',
      '144m',
      '333ms',
      '0s',
      '2m',
    ]);
    expect(() => scaleDuration('5 minutes', 30)).toThrow(/not a Prometheus duration/);
  });

  it('scales range selectors and subqueries, and nothing else in an expression', () => {
    const expr = 'sum by (target) (rate(x_total{check="read", le="+Inf"}[5m])) / 3 * 86400 > max_over_time(y[10m:30s]) unless z[1h]';
    expect(scaleExpr(expr, 30)).toBe(
      'sum by (target) (rate(x_total{check="read", le="+Inf"}[10s])) / 3 * 86400 > max_over_time(y[20s:1s]) unless z[2m]',
    );
  });
});

describe('the shipped files, scaled', () => {
  it('every for, keep_firing_for and window of the rules is divided; names, labels and annotations are untouched', () => {
    const text = readFileSync(`${deploy}prometheus/alerting-rules.yml`, 'utf8');
    type Rule = { alert: string; expr: string; for?: string; keep_firing_for?: string; labels?: object; annotations?: object };
    const before = (parse(text) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
    const after = (parse(scaleRules(text, 30)) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
    expect(after.map((r) => r.alert)).toEqual(before.map((r) => r.alert));
    after.forEach((rule, i) => {
      const old = before[i]!;
      expect([rule.labels, rule.annotations]).toEqual([old.labels, old.annotations]);
      if (old.for) expect(parsePromDuration(rule.for!)).toBe(Math.round(parsePromDuration(old.for)! / 30));
      if (old.keep_firing_for)
        expect(parsePromDuration(rule.keep_firing_for!)).toBe(Math.round(parsePromDuration(old.keep_firing_for)! / 30));
      expect(rule.expr.replace(/\[\w+(:\w*)?\]/g, '[]')).toBe(old.expr.replace(/\[\w+(:\w*)?\]/g, '[]'));
    });
    const down = after.find((r) => r.alert === 'RepairmonEndpointDown')!;
    expect(down.keep_firing_for).toBe('2s');
  });

  it('holds over the cap are cut to it (the stack asserts that alerts hold, promtool how long)', () => {
    const text = readFileSync(`${deploy}prometheus/alerting-rules.yml`, 'utf8');
    const capped = scaleRules(text, 30, { maxHoldMs: 10_000 });
    const rules = (parse(capped) as { groups: { rules: { alert: string; for?: string; keep_firing_for?: string }[] }[] }).groups.flatMap(
      (g) => g.rules,
    );
    expect(rules.map((r) => r.alert)).toContain('RepairmonMonitorDown');
    expect(rules.find((r) => r.alert === 'RepairmonTenantIsolationBreach')?.keep_firing_for).toBe('10s');
    expect(rules.find((r) => r.alert === 'RepairmonEndpointDown')?.keep_firing_for).toBe('2s');
  });

  it('routing timings are divided and every receiver posts to its own path of the webhook', () => {
    const scaled = parse(scaleAlertmanager(readFileSync(`${deploy}alertmanager/alertmanager.yml`, 'utf8'), 30, 'http://127.0.0.1:9')) as {
      route: { group_wait: string; routes: { receiver: string; group_wait?: string; group_interval?: string }[] };
      receivers: { name: string; webhook_configs: { url: string }[] }[];
    };
    expect(scaled.route.group_wait).toBe('1s');
    expect(scaled.route.routes.find((r) => r.receiver === 'ops-pager')).toMatchObject({ group_wait: '333ms', group_interval: '2s' });
    for (const r of scaled.receivers) expect(r.webhook_configs.map((w) => w.url)).toEqual([`http://127.0.0.1:9/${r.name}`]);
  });
});

describe('alert-latency summary rows', () => {
  const measurement = (over: Partial<FaultMeasurement>): FaultMeasurement => ({
    fault: 'html-502',
    injectedAt: 0,
    clearedAt: 0,
    what: 'x',
    expect: { alertname: 'RepairmonEndpointDown', severity: 'page', receiver: 'ops-pager', labels: {} },
    fired: { labels: {}, receiver: 'ops-pager' },
    fireSeconds: 2,
    resolveSeconds: 4,
    resolvedReceiver: 'ops-pager',
    flapped: false,
    others: [],
    ...over,
  });
  const result = (faults: FaultMeasurement[]): AlertStackResult => ({
    startedAt: '',
    scheduleSeconds: 1,
    factor: 30,
    prometheusIntervalSeconds: 1,
    faults,
    unexpected: [],
    wallSeconds: 1,
  });

  it('is MET only when the alert fired at its receiver, held and resolved; times shown at both schedules', () => {
    const rows = alertRows(
      result([
        measurement({}),
        measurement({ flapped: true }),
        measurement({ fired: { labels: {}, receiver: 'ops-tickets' } }),
        measurement({ resolveSeconds: undefined }),
        measurement({
          falseNotifications: [
            { alertname: 'X', severity: 'ticket', status: 'firing', receiver: 'ops-tickets', why: 'not explained by the fault' },
          ],
        }),
      ]),
    );
    expect(rows.map((r) => r.verdict)).toEqual(['MET', 'MISSED', 'MISSED', 'MISSED', 'MISSED']);
    expect(rows[0]).toMatchObject({ ours: '2.0 / 4.0', baseline: '1.0 / 2.0' });
  });

  it('leads with the whole outage to its first page at the default timings, the median of its samples, against 75 s', () => {
    const rows = (pageSeconds: number | undefined, outageSamplePages?: Array<number | undefined>) =>
      alertRows({ ...result([measurement({}), measurement({ fault: 'whole-outage', pageSeconds })]), outageSamplePages });
    expect(rows(2.5)[0]).toMatchObject({ ours: '75.0', target: '<= 75', verdict: 'MET' });
    expect(rows(2.6)[0]).toMatchObject({ ours: '78.0', verdict: 'MISSED' });
    expect(rows(undefined)[0]).toMatchObject({ verdict: 'MISSED' });
    expect(rows(2.5)).toHaveLength(3);
    expect(alertRows(result([measurement({})]))).toHaveLength(1);
    // Five samples: the median decides, each is listed; one that never paged fails the row.
    const five = rows(3.1, [2.0, 2.2, 2.4, 3.0])[0];
    expect(five).toMatchObject({ ours: '72.0', verdict: 'MET' });
    expect(five?.figure).toContain('median of 5 injections at staggered phases: 93, 60, 66, 72, 90;');
    expect(rows(2.5)[0]?.figure).toContain('(one injection; x30');
    expect(rows(2.0, [2.0, undefined, 2.0, 2.0])[0]).toMatchObject({ ours: 'n/a', verdict: 'MISSED' });
  });
});
