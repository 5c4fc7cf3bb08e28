/** The bench's guard: today's ratios against the committed baseline, and how the baseline is rewritten. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type BaselineFile,
  type BaselineSet,
  compareWithBaseline,
  comparisonFails,
  nextBaseline,
  renderComparison,
  worseBy,
} from '../../bench/lib/baseline.js';
import type { Guard, SummaryRow } from '../../bench/lib/summary.js';
import { benches } from '../../bench/run-all.js';
import { ROOT } from '../helpers/import-rules.js';

const row = (guard?: Guard): SummaryRow => ({
  bench: 'b',
  figure: 'f',
  ours: '',
  baseline: '',
  ratio: '',
  target: '',
  verdict: 'info',
  ...(guard ? { guard } : {}),
});

const set: BaselineSet = {
  writtenAt: '2026-11-28T05:00:00Z',
  reason: 'test',
  figures: {
    'client-overhead/concurrency 16': { ratio: 1.0, better: 'lower', bench: 'client-overhead' },
    'sandbox-throughput': { ratio: 0.5, better: 'higher', bench: 'sandbox-throughput' },
    'generator/new': { ratio: 6, better: 'lower', bench: 'generator' },
  },
};

describe('the bench guard', () => {
  it('counts worse upwards for a lower-is-better ratio and downwards for the other kind', () => {
    expect(worseBy(1, 1.3, 'lower')).toBeCloseTo(0.3);
    expect(worseBy(0.5, 0.4, 'higher')).toBeCloseTo(0.2);
    expect(worseBy(1, 0.8, 'lower')).toBeCloseTo(-0.2);
    expect(worseBy(0, 1, 'lower')).toBeNaN();
  });

  it('fails a figure more than 20% worse, passes one within, and leaves out benches that did not run', () => {
    const ran = {
      'client-overhead': [row({ id: 'client-overhead/concurrency 16', value: 1.19, better: 'lower' })],
      'sandbox-throughput': [row({ id: 'sandbox-throughput', value: 0.39, better: 'higher' })],
    };
    const comparisons = compareWithBaseline(set, ran);
    expect(comparisons.map((c) => [c.id, c.verdict])).toEqual([
      ['client-overhead/concurrency 16', 'ok'],
      ['sandbox-throughput', 'WORSE'],
    ]);
    expect(comparisonFails(comparisons)).toBe(true);
    expect(comparisonFails(comparisons.slice(0, 1))).toBe(false);
    const table = renderComparison(comparisons);
    expect(table).toMatch(/sandbox-throughput\s+0\.500\s+0\.390\s+\+22 % worse\s+WORSE/);
    expect(table).toMatch(/concurrency 16\s+1\.000\s+1\.190\s+\+19 % worse\s+ok/);
  });

  it('fails a figure its bench no longer gives (failed, timed out, NaN) and shows a new one without failing', () => {
    const ran = {
      generator: [
        row({ id: 'generator/new', value: Number.NaN, better: 'lower' }),
        row({ id: 'generator/npm-test', value: 9, better: 'lower' }),
      ],
    };
    const comparisons = compareWithBaseline(set, ran);
    expect(comparisons.map((c) => [c.id, c.verdict])).toEqual([
      ['generator/new', 'MISSING'],
      ['generator/npm-test', 'new'],
    ]);
    expect(comparisonFails(comparisons)).toBe(true);
    expect(comparisonFails(compareWithBaseline(set, { generator: [row()] }))).toBe(true);
  });

  it('rewrites only the benches that ran (--only), keeping the figures of the others', () => {
    const next = nextBaseline(
      { quick: set },
      'quick',
      { generator: [row({ id: 'generator/npm-test', value: 9, better: 'lower' })] },
      'now',
      'why',
    );
    expect(Object.keys(next.quick?.figures ?? {}).sort()).toEqual([
      'client-overhead/concurrency 16',
      'generator/npm-test',
      'sandbox-throughput',
    ]);
  });

  it("rewrites only the run's mode, with the reason, and keeps the other", () => {
    const current: BaselineFile = { full: set };
    const next = nextBaseline(
      current,
      'quick',
      { generator: [row({ id: 'generator/new', value: 5.12345, better: 'lower' }), row()] },
      'now',
      'why',
    );
    expect(next.full).toBe(set);
    expect(next.quick).toEqual({
      writtenAt: 'now',
      reason: 'why',
      figures: { 'generator/new': { ratio: 5.1235, better: 'lower', bench: 'generator' } },
    });
  });

  it('the committed baseline names only benches run-all knows, each ratio a positive number', () => {
    const file = JSON.parse(readFileSync(join(ROOT, 'bench', 'baseline.json'), 'utf8')) as BaselineFile;
    const names = benches(false).map((b) => b.name);
    expect(file.quick ?? file.full).toBeDefined();
    for (const s of [file.quick, file.full]) {
      for (const [id, f] of Object.entries(s?.figures ?? {})) {
        expect(names, id).toContain(f.bench);
        expect(f.ratio, id).toBeGreaterThan(0);
        expect(s?.reason, id).not.toBe('');
      }
    }
  });
});
