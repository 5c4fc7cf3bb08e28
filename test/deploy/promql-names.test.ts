import { describe, expect, it } from 'vitest';
import { metricNames } from './helpers/promql-names.js';

const names = (expr: string): string[] => [...metricNames(expr)].sort();

describe('metricNames', () => {
  it('finds the metrics behind aggregations, functions and binary operators', () => {
    expect(
      names(
        'sum by (target, endpoint) (rate(repairmon_probes_total{check="read", outcome=~"ok|x"}[10m])) / on (target) group_left max by (target) (foo_seconds)',
      ),
    ).toEqual(['foo_seconds', 'repairmon_probes_total']);
  });

  it('skips label names, strings, durations, offsets and keywords', () => {
    expect(names('histogram_quantile(0.95, sum without (instance) (rate(a_bucket{le!="+Inf"}[5m] offset 1h))) > bool 0.5')).toEqual([
      'a_bucket',
    ]);
    expect(names('time() - b_timestamp_seconds > 3 * 30 unless on (target) (c_active == 1)')).toEqual(['b_timestamp_seconds', 'c_active']);
  });

  it('reads recorded names with colons and {__name__=...} selectors', () => {
    expect(names('level:metric:ratio_rate10m > 0.1 or {__name__="d_total", job="x"}')).toEqual(['d_total', 'level:metric:ratio_rate10m']);
  });

  it('fails loudly on text it cannot lex', () => {
    expect(() => metricNames('sum(x) $')).toThrow(/cannot lex/);
  });
});
