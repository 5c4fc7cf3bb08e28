/** The shared bench helpers: /proc parsing, statistics, Prometheus text, tables, flags. */
import { describe, expect, it } from 'vitest';
import { isEntryPoint, listFlag, numberFlag } from '../../bench/lib/cli.js';
import { CLOCK_TICKS_PER_SECOND, parseProcStat, parseVmRss, sampleCpu, sampleRss } from '../../bench/lib/proc-stat.js';
import { histogramBuckets, histogramQuantile, parseSamples, seriesCount, sumOf } from '../../bench/lib/prom-text.js';
import { fixed, mean, median, percentile, ratio, renderTable } from '../../bench/lib/stats.js';

describe('proc-stat', () => {
  it('reads utime and stime after the last ")" even when the command name has spaces and parentheses', () => {
    const line = '4242 (node (bench) x) S 1 4242 4242 0 -1 4194304 1000 0 0 0 123 45 0 0 20 0 11 0 500 1000000 2000 18446744073709551615';
    expect(parseProcStat(line)).toEqual({ utimeTicks: 123, stimeTicks: 45 });
  });

  it('refuses text that is not a stat line', () => {
    expect(() => parseProcStat('garbage')).toThrow(/no "\)"/);
    expect(() => parseProcStat('1 (x) S 1 2')).toThrow(/utime\/stime/);
  });

  it('reads VmRSS in bytes', () => {
    expect(parseVmRss('Name:\tnode\nVmRSS:\t   20480 kB\nThreads:\t11\n')).toBe(20480 * 1024);
    expect(() => parseVmRss('Name:\tzombie\n')).toThrow(/VmRSS/);
  });

  it('samples this very process from /proc', async () => {
    const cpu = await sampleCpu(process.pid);
    expect(cpu.cpuSeconds).toBeGreaterThan(0);
    expect(Number.isInteger(Math.round(cpu.cpuSeconds * CLOCK_TICKS_PER_SECOND))).toBe(true);
    expect(await sampleRss(process.pid)).toBeGreaterThan(1024 * 1024);
  });
});

describe('stats', () => {
  it('takes nearest-rank percentiles of unsorted values', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 90)).toBe(9);
    expect(percentile(values, 99)).toBe(10);
    expect(percentile(values, 0)).toBe(1);
    expect(median([3, 1, 2])).toBe(2);
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(percentile([], 50)).toBeNaN();
  });

  it('never reports a ratio against a missing baseline', () => {
    expect(ratio(1, 2)).toBe(0.5);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(Number.NaN, 2)).toBeNaN();
  });
});

describe('prom-text', () => {
  const text = [
    '# HELP repairmon_probes_total x',
    '# TYPE repairmon_probes_total counter',
    'repairmon_probes_total{target="a",outcome="ok"} 3',
    'repairmon_probes_total{target="a",outcome="timeout"} 1',
    'repairmon_probe_schedule_delay_seconds_bucket{le="0.1",target="a"} 90',
    'repairmon_probe_schedule_delay_seconds_bucket{le="1",target="a"} 98',
    'repairmon_probe_schedule_delay_seconds_bucket{le="+Inf",target="a"} 100',
    'repairmon_probe_schedule_delay_seconds_bucket{le="0.1",target="b"} 0',
    'repairmon_probe_schedule_delay_seconds_bucket{le="1",target="b"} 0',
    'repairmon_probe_schedule_delay_seconds_bucket{le="+Inf",target="b"} 0',
    '',
  ].join('\n');

  it('counts series and sums a counter over its labels', () => {
    const samples = parseSamples(text);
    expect(seriesCount(text)).toBe(8);
    expect(sumOf(samples, 'repairmon_probes_total')).toBe(4);
  });

  it('estimates a quantile inside its bucket like histogram_quantile, and says when it is past the last bucket', () => {
    const buckets = histogramBuckets(parseSamples(text), 'repairmon_probe_schedule_delay_seconds');
    expect(buckets.map((b) => b.le)).toEqual([0.1, 1, Number.POSITIVE_INFINITY]);
    const p95 = histogramQuantile(0.95, buckets);
    expect(p95.kind).toBe('estimate');
    if (p95.kind === 'estimate') {
      expect(p95.value).toBeCloseTo(0.1 + (0.9 * 5) / 8, 6);
      expect(p95.atMost).toBe(1);
    }
    expect(histogramQuantile(0.99, buckets)).toEqual({ kind: 'above', atLeast: 1 });
    expect(histogramQuantile(0.99, [])).toEqual({ kind: 'empty' });
  });
});

describe('table and flags', () => {
  it('pads columns to the widest cell, right-aligning where asked', () => {
    const out = renderTable(
      ['name', 'n'],
      [
        ['a', '1'],
        ['longer', '100'],
      ],
      ['left', 'right'],
    );
    expect(out.split('\n')).toEqual(['name      n', '------  ---', 'a         1', 'longer  100']);
    expect(fixed(Number.NaN, 2)).toBe('n/a');
    expect(fixed(1.234, 1)).toBe('1.2');
  });

  it('parses numeric flags strictly, naming the flag in the error', () => {
    expect(numberFlag(['--seconds', '5'], 'seconds', { min: 1, max: 60 })).toBe(5);
    expect(numberFlag([], 'seconds', { min: 1, max: 60 })).toBeUndefined();
    expect(() => numberFlag(['--seconds', 'abc'], 'seconds', { min: 1, max: 60 })).toThrow(
      /--seconds must be a number from 1 to 60, got "abc"/,
    );
    expect(() => numberFlag(['--seconds'], 'seconds', { min: 1, max: 60 })).toThrow(/--seconds/);
    expect(listFlag(['--keys', '100,1000'], 'keys', { min: 1, max: 5000 })).toEqual([100, 1000]);
    expect(() => listFlag(['--keys', '100,x'], 'keys', { min: 1, max: 5000 })).toThrow(/--keys .*"100,x"/);
    expect(isEntryPoint('file:///nowhere/not-the-entry.js')).toBe(false);
  });
});
