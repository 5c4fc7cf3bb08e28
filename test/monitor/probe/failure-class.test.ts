/** Whose failure an outcome is, and how a run of failures grows, ends and survives throttling. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '../../../monitor/probe/expectation.js';
import { FAILURE_CLASSES, NO_STREAK, failureClass, nextStreak } from '../../../monitor/probe/failure-class.js';

describe('failureClass', () => {
  it('pages for the service, tickets for the key and the config, never for throttling', () => {
    expect(failureClass('server_error', false, 'clients')).toBe('service');
    expect(failureClass('timeout', false, 'index')).toBe('service');
    expect(failureClass('unauthorized', false, 'clients')).toBe('key');
    for (const refused of ['forbidden', 'insufficient_scope', 'tenant_mismatch'] as const)
      expect(failureClass(refused, false, 'logs')).toBe('key');
    for (const broken of ['client_error', 'redirect', 'invalid_envelope', 'connection_error', 'tls_error'] as const)
      expect(failureClass(broken, false, 'clients')).toBe('service');
    expect(failureClass('rate_limited', false, 'clients')).toBe('throttled');
    expect(failureClass('assertion_failed', false, 'clients')).toBe('breach');
    expect(failureClass('forbidden', true, 'logs')).toBe('none');
  });

  it('a 404 is the config on a configured tenant or /platform/ path, the service on / and /docs', () => {
    expect(failureClass('not_found', false, 'bikes')).toBe('config');
    expect(failureClass('not_found', false, 'platform')).toBe('config');
    expect(failureClass('not_found', false, 'docs')).toBe('service');
    expect(failureClass('not_found', false, 'index')).toBe('service');
  });
});

describe('nextStreak', () => {
  it('property: a success ends any run; throttling never breaks a run of another class; a run counts only its own class', () => {
    const cls = fc.constantFrom(...FAILURE_CLASSES);
    fc.assert(
      fc.property(fc.array(cls, { maxLength: 40 }), (classes) => {
        let streak = NO_STREAK;
        for (const next of classes) {
          const before = streak;
          streak = nextStreak(streak, next);
          if (next === 'none') expect(streak).toEqual(NO_STREAK);
          else if (next === 'throttled' && before.class !== 'none' && before.class !== 'throttled') expect(streak).toBe(before);
          else expect(streak).toEqual({ class: next, count: before.class === next ? before.count + 1 : 1 });
        }
      }),
    );
  });

  it('every outcome has a class (the switch is total)', () => {
    for (const outcome of OUTCOMES) expect(FAILURE_CLASSES).toContain(failureClass(outcome, false, 'clients'));
  });
});
