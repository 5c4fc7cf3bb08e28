/** A SIGHUP while `serve` starts is held (not the default action, which ends the process) and replayed once. */
import { describe, expect, it } from 'vitest';
import { holdStartupHangups } from '../../../monitor/run-service.js';

describe('holdStartupHangups', () => {
  it('holds a SIGHUP sent during start-up and reports it once released; leaves no listener behind', () => {
    const before = process.listenerCount('SIGHUP');
    const held = holdStartupHangups();
    expect(process.listenerCount('SIGHUP')).toBe(before + 1);
    process.emit('SIGHUP', 'SIGHUP');
    expect(held.release()).toBe(true);
    expect(process.listenerCount('SIGHUP')).toBe(before);
  });

  it('reports nothing when no SIGHUP came', () => {
    expect(holdStartupHangups().release()).toBe(false);
  });
});
