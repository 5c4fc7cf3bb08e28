/**
 * The series-budget families against their prom-client reference: outcome counters per target,
 * endpoint and check that never go down when a key leaves, and the per-probe failure streak.
 */
import { describe, expect, test } from 'vitest';
import { makeProbe } from '../../../monitor/probe/spec.js';
import { both, result, seriesOf, sortedLines, spec } from './table-helpers.js';

const nowak = spec('nowak-test', 'rowery-nowak');
const kowalski = spec('kowalski-test', 'serwis-kowalski');

describe('outcome counters per endpoint and failure streaks per probe', () => {
  test('per endpoint: a removed key never makes a counter go down; a removed endpoint loses its counters', async () => {
    const m = both();
    const docs = makeProbe({
      target: 'test',
      endpoint: 'docs',
      tenant: '',
      keyAlias: 'nowak-test',
      check: 'read',
      credential: { kind: 'none' },
      expect: { kind: 'success', list: false },
    });
    m.syncPlan([nowak, kowalski, docs]);
    m.record(result(nowak));
    m.record(result(kowalski));
    m.syncPlan([nowak]);
    const text = await m.registry.metrics();
    expect(seriesOf(text, 'repairmon_probes_total')).toContain(
      'repairmon_probes_total{target="test",endpoint="clients",check="read",outcome="ok"} 2',
    );
    expect(text).not.toContain('endpoint="docs"');
    expect(text).not.toContain('kowalski');
    expect(sortedLines(text)).toEqual(sortedLines(await m.reference.metrics()));
  });

  test('consecutive failures: a run of one class counts up, a 429 leaves it, another class starts over, a success ends it', async () => {
    const m = both();
    m.syncPlan([nowak]);
    const streak = async () =>
      seriesOf(await m.registry.metrics(), 'repairmon_probe_consecutive_failures').map((l) => l.replace(/^.*check="read",/, ''));
    m.record(result(nowak, { outcome: 'server_error', reason: 'status_502', status: 502 }));
    m.record(result(nowak, { outcome: 'timeout', reason: 'timeout_headers' }));
    expect(await streak()).toEqual(['class="service"} 2']);
    m.record(result(nowak, { outcome: 'rate_limited', reason: 'held_retry_after', sent: false }));
    expect(await streak()).toEqual(['class="service"} 2']);
    m.record(result(nowak, { outcome: 'unauthorized', reason: 'code_unauthorized', status: 401 }));
    expect(await streak()).toEqual(['class="key"} 1']);
    m.record(result(nowak, { status: 200 }));
    expect(await streak()).toEqual(['class="none"} 0']);
    m.record(result(nowak, { outcome: 'rate_limited', reason: 'status_429', status: 429 }));
    expect(await streak()).toEqual(['class="throttled"} 1']);
    expect(sortedLines(await m.registry.metrics())).toEqual(sortedLines(await m.reference.metrics()));
  });
});
