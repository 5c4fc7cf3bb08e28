/** Verdicts of the summary table, scale maths, run-all's bounds and flags, the generator's flags. */
import { describe, expect, it } from 'vitest';
import { ANSWER_FLAGS, RUN_FLAGS } from '../../generators/app/flags.js';
import type { OverheadFigures } from '../../bench/client-overhead.js';
import { scaffoldArgs } from '../../bench/generator.js';
import { everySeconds } from '../../bench/lib/scale-child.js';
import { type SummaryRow, clientRows, outcomeRows, renderSummary, scaleRows, versusRows } from '../../bench/lib/summary.js';
import { type ScaleRow, donePercent, scaleVerdicts, timeoutFor } from '../../bench/monitor-scale-matrix.js';
import type { VersusFigures } from '../../bench/monitor-vs-blackbox.js';
import { benches, bounded, parseRunArgs } from '../../bench/run-all.js';
import { cronProblem, shortestIntervalMs } from '../../monitor/config/cron.js';

function scaleRow(over: Partial<ScaleRow>): ScaleRow {
  return {
    keys: 1000,
    scheduled: 7004,
    doneInInterval: 7004,
    doneAtEnd: 7004,
    expected: 7004,
    tickSeconds: 41,
    tickFinished: true,
    delayP99Seconds: 0.2,
    delayP99AtMostSeconds: 0.5,
    series: 139_000,
    metricsBytes: 19 * 2 ** 20,
    renderMs: [100, 120, 110],
    rssBytes: 500 * 2 ** 20,
    intervalSeconds: 60,
    peakRssBytes: 600 * 2 ** 20,
    cpuSeconds: 6,
    ...over,
  };
}

const side = (cpuUsPerCall: number) => ({ ok: 100, cpuUsPerCall, userUsPerCall: cpuUsPerCall, systemUsPerCall: 0, wallUsPerCall: 100 });

describe('summary rows', () => {
  it('meets the client target at 1.10 and misses it above', () => {
    const mode = (concurrency: number, client: number) => ({
      concurrency,
      calls: 100,
      client: side(client),
      raw: side(100),
      cpuRatio: client / 100,
      medianCpuRatio: client / 100,
      userRatio: client / 100,
      wallRatio: 1,
    });
    const figures: OverheadFigures = { sequential: mode(1, 110), concurrent: mode(16, 130), inMemory: mode(1, 105) };
    expect(clientRows(figures).map((r) => r.verdict)).toEqual(['MET', 'MISSED', 'MET']);
  });

  it('judges the monitor against blackbox_exporter by the ratio, and a NaN ratio never passes', () => {
    const versus = (ratio: number): VersusFigures => {
      const s = { cpuSeconds: 1, systemSeconds: 0.5, windowSeconds: 20, probes: 1000, ok: 1000, cpuSecondsPer1000: 1, rssBytes: 1 };
      const rounds = { median: ratio, rounds: 4, min: ratio, max: ratio };
      return { rate: 50, keys: 12, seconds: 20, rounds, distinctUrls: 6, blackbox: s, ours: s, ratio, totalRatio: ratio, loadAverage: 1 };
    };
    expect(versusRows(versus(0.3))[0]?.verdict).toBe('MET');
    expect(versusRows(versus(0.4))[0]?.verdict).toBe('MISSED');
    expect(versusRows(versus(0.9))[0]?.verdict).toBe('MISSED');
    expect(versusRows(versus(Number.NaN))[0]?.verdict).toBe('MISSED');
  });

  it('rates scale only at 1 000 keys on the real 60 s interval', () => {
    const render = { keys: 6, probes: 8, series: 100, bytes: 1, roundSeconds: 1, renderMedianMs: 5, renderP95Ms: 6 };
    const matrix = (rows: ScaleRow[], intervalSeconds: number) => ({
      matrix: { intervalSeconds, concurrency: 16, rows, loadAverage: 1 },
      renderBaseline: { baseline: render, scaled: render, seriesRatio: 1, renderRatio: 1 },
    });
    const good = scaleRows(matrix([scaleRow({})], 60));
    expect(good.filter((r) => r.verdict !== 'info').map((r) => r.verdict)).toEqual(['MET', 'MET', 'MET']);
    const bad = scaleRows(matrix([scaleRow({ doneInInterval: 7000, delayP99Seconds: 1.2, renderMs: [900, 1000, 1100] })], 60));
    expect(bad.filter((r) => r.verdict !== 'info').map((r) => r.verdict)).toEqual(['MISSED', 'MISSED', 'MISSED']);
    expect(scaleRows(matrix([scaleRow({})], 10)).every((r) => r.verdict === 'info')).toBe(true);
    expect(scaleRows(matrix([scaleRow({ keys: 5000 })], 60)).every((r) => r.verdict === 'info')).toBe(true);
  });

  it('leaves one row saying why for a bench that failed or ran out of time', () => {
    const failed = outcomeRows('x', { kind: 'failed', seconds: 1, message: 'boom\nstack' }, () => []);
    expect(failed).toEqual([expect.objectContaining({ bench: 'x', figure: 'boom', verdict: 'FAILED' })]);
    const late = outcomeRows('y', { kind: 'timed_out', seconds: 5, limitSeconds: 5 }, () => []);
    expect(late[0]).toMatchObject({ verdict: 'TIMED OUT', figure: 'stopped waiting after 5 s' });
    const rows: SummaryRow[] = [...failed, ...late];
    expect(renderSummary(rows).split('\n')).toHaveLength(4);
  });
});

describe('scale maths', () => {
  it('turns an interval into a cron expression node-cron accepts with that interval', () => {
    for (const seconds of [5, 10, 30, 60]) {
      expect(cronProblem(everySeconds(seconds))).toBeUndefined();
      expect(shortestIntervalMs(everySeconds(seconds))).toBe(seconds * 1000);
    }
    expect(() => everySeconds(7)).toThrow(/divide 60/);
  });

  it('keeps the probe timeout well below the interval, 10 s at most', () => {
    expect(timeoutFor(60)).toBe(10);
    expect(timeoutFor(10)).toBe(2);
    expect(timeoutFor(5)).toBe(1);
    expect(donePercent({ doneInInterval: 50, scheduled: 200 })).toBe(25);
    expect(scaleVerdicts(scaleRow({ renderMs: [300, 100, 200] })).render).toBe('MET');
  });
});

describe('run-all', () => {
  it('gives up on a bench past its limit and reports a failure with its message', async () => {
    expect(await bounded(() => new Promise(() => undefined), 0.01)).toMatchObject({ kind: 'timed_out', limitSeconds: 0.01 });
    expect(await bounded(() => Promise.reject(new Error('no blackbox')), 5)).toMatchObject({ kind: 'failed', message: 'no blackbox' });
    expect(await bounded(() => Promise.resolve(42), 5)).toMatchObject({ kind: 'ok', figures: 42 });
  });

  it('knows every bench and refuses an unknown name in --only', () => {
    const names = benches(false).map((b) => b.name);
    expect(names).toEqual([
      'sandbox-throughput',
      'client-overhead',
      'monitor-vs-blackbox',
      'monitor-vs-blackbox-200',
      'scale',
      'hostile-scale',
      'generator',
      'alert-latency',
    ]);
    expect(parseRunArgs(['--quick', '--only', 'scale,generator'], names)).toEqual({
      quick: true,
      only: ['scale', 'generator'],
      compare: false,
      writeBaseline: undefined,
    });
    expect(() => parseRunArgs(['--only', 'scale,nope'], names)).toThrow(/--only .*"scale,nope"/);
  });

  it('takes --compare, and --write-baseline only with its reason', () => {
    expect(parseRunArgs(['--compare'], [])).toMatchObject({ compare: true, writeBaseline: undefined });
    expect(parseRunArgs(['--write-baseline', 'faster new'], [])).toMatchObject({ compare: false, writeBaseline: 'faster new' });
    expect(() => parseRunArgs(['--write-baseline'], [])).toThrow(/takes the reason/);
    expect(() => parseRunArgs(['--write-baseline', '--quick'], [])).toThrow(/takes the reason/);
  });
});

describe('generator bench', () => {
  it('passes only flags that repairmon new knows, answering enough to never prompt', () => {
    const known = new Set([...ANSWER_FLAGS.map((f) => f.flag), ...RUN_FLAGS.map((f) => f.flag), 'no-interactive']);
    const flags = scaffoldArgs('x')
      .filter((a) => a.startsWith('--'))
      .map((a) => a.slice(2));
    expect(flags.every((f) => known.has(f))).toBe(true);
    expect(flags).toEqual(expect.arrayContaining(['yes', 'no-interactive', 'skip-install']));
  });
});
