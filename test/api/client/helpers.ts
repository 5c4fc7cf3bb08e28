/** Test doubles for the client: a MockAgent with the net shut, and fake clocks. */
import { MockAgent } from 'undici';
import { ApiKey } from '../../../api/client/api-key.js';
import type { Clock } from '../../../api/client/clock.js';
import type { ClientLogger, LogFields } from '../../../api/client/logger.js';

export const ORIGIN = 'http://api.test';
export const BASE_URL = `${ORIGIN}/api/v1`;
export const SECRET = 'rs_test_Zq8xSECRETvalue0000wXyZ';
export const KEY = new ApiKey(SECRET, 'nowak-test');
export const START = Date.UTC(2026, 10, 21, 12, 0, 0);

export function mockAgent(): { agent: MockAgent; pool: ReturnType<MockAgent['get']> } {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return { agent, pool: agent.get(ORIGIN) };
}

/** A clock whose sleeps take no wall time: each one moves `now` forward and is recorded. */
export function instantClock(start = START): { clock: Clock; sleeps: number[]; now: () => number } {
  let now = start;
  const sleeps: number[] = [];
  return {
    clock: {
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    },
    sleeps,
    now: () => now,
  };
}

/** A clock whose sleeps never end by themselves (and ignore the signal): only an abort can end them. */
export function hangingClock(start = START): { clock: Clock; sleeps: number[]; slept: Promise<number> } {
  const sleeps: number[] = [];
  let notify: (ms: number) => void = () => undefined;
  const slept = new Promise<number>((resolve) => (notify = resolve));
  return {
    clock: {
      now: () => start,
      sleep: (ms) => {
        sleeps.push(ms);
        notify(ms);
        return new Promise<void>(() => undefined);
      },
    },
    sleeps,
    slept,
  };
}

export interface LogLine {
  level: string;
  message: string;
  fields?: LogFields | undefined;
}

export function captureLogger(): { logger: ClientLogger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (message: string, fields?: LogFields) => lines.push({ level, message, fields });
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

export const envelopeOk = (data: unknown) => ({ ok: true, data });
export const envelopeError = (code: string, message: string) => ({ ok: false, error: { code, message } });
export const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** Resolves to 'pending' if `promise` has not settled within `ms` of wall time. */
export function settledWithin<T>(promise: Promise<T>, ms: number): Promise<{ state: 'resolved'; value: T } | { state: 'rejected'; reason: unknown } | { state: 'pending' }> {
  return Promise.race([
    promise.then(
      (value) => ({ state: 'resolved' as const, value }),
      (reason: unknown) => ({ state: 'rejected' as const, reason }),
    ),
    new Promise<{ state: 'pending' }>((resolve) => setTimeout(() => resolve({ state: 'pending' }), ms)),
  ]);
}
