import { expect, test } from 'vitest';
import { cappedHold, capNote } from '../../../monitor/probe/politeness.js';

test('a hint within the cap is held as asked; a longer one is held for the cap and says what was asked', () => {
  expect(cappedHold(30_000, 3_600_000)).toEqual({ holdMs: 30_000, capped: undefined });
  expect(cappedHold(3_600_000, 3_600_000)).toEqual({ holdMs: 3_600_000, capped: undefined });
  const long = cappedHold(2 * 86_400_000, 3_600_000);
  expect(long).toEqual({ holdMs: 3_600_000, capped: { askedMs: 2 * 86_400_000, capMs: 3_600_000 } });
  expect(capNote(long.capped!)).toBe('the server asked to wait 2 days; the hold is capped at 1 h (maxRateLimitHold)');
});
