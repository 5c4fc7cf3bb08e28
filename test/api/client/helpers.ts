/** Test doubles for the client: a MockAgent with the net shut, and a logger that records. */
import { MockAgent } from 'undici';
import { ApiKey } from '../../../api/client/api-key.js';
import type { LogFields, Logger } from '../../../api/client/logger.js';

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

export interface LogLine {
  level: string;
  message: string;
  fields?: LogFields | undefined;
}

export function captureLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (message: string, fields?: LogFields) => lines.push({ level, message, fields });
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

export const envelopeOk = (data: unknown) => ({ ok: true, data });
export const envelopeError = (code: string, message: string) => ({ ok: false, error: { code, message } });
export const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** Resolves to 'pending' if `promise` has not settled within `ms` of wall time. */
export function settledWithin<T>(
  promise: Promise<T>,
  ms: number,
): Promise<{ state: 'resolved'; value: T } | { state: 'rejected'; reason: unknown } | { state: 'pending' }> {
  return Promise.race([
    promise.then(
      (value) => ({ state: 'resolved' as const, value }),
      (reason: unknown) => ({ state: 'rejected' as const, reason }),
    ),
    new Promise<{ state: 'pending' }>((resolve) => setTimeout(() => resolve({ state: 'pending' }), ms)),
  ]);
}
