import { describe, expect, test } from 'vitest';
import type { MonitorTarget } from '../../../monitor/config/types.js';
import { openWindow } from '../../../monitor/config/cron.js';

const target = (maintenance: MonitorTarget['maintenance']): MonitorTarget => ({ name: 't', maintenance }) as unknown as MonitorTarget;

describe('maintenance windows (UTC)', () => {
  const sunday0310 = Date.parse('2026-11-22T03:10:00Z');
  const weekly = target([{ kind: 'cron', cron: '0 3 * * 0', durationMs: 30 * 60_000, reason: 'db' }]);

  test('a cron window is open from its start for its duration', () => {
    expect(openWindow(weekly, sunday0310)?.reason).toBe('db');
    expect(openWindow(weekly, Date.parse('2026-11-22T03:00:00Z'))).toBeDefined();
    expect(openWindow(weekly, Date.parse('2026-11-22T03:30:00Z'))).toBeUndefined();
    expect(openWindow(weekly, Date.parse('2026-11-22T02:59:00Z'))).toBeUndefined();
    expect(openWindow(weekly, Date.parse('2026-11-23T03:10:00Z'))).toBeUndefined();
  });

  test('a fixed window is open between start and end', () => {
    const fixed = target([
      { kind: 'fixed', startMs: Date.parse('2026-12-24T18:00:00Z'), endMs: Date.parse('2026-12-25T06:00:00Z'), reason: undefined },
    ]);
    expect(openWindow(fixed, Date.parse('2026-12-24T23:00:00Z'))).toBeDefined();
    expect(openWindow(fixed, Date.parse('2026-12-25T06:00:00Z'))).toBeUndefined();
  });
});
