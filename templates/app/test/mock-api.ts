/** A MockAgent that answers like API v1 for one origin; passed explicitly as the dispatcher. */
import { MockAgent } from 'undici';

export const ORIGIN = 'http://api.test';
export const BASE_URL = `${ORIGIN}/api/v1`;

export interface MockApi {
  readonly agent: MockAgent;
  ok(path: string, data: unknown): void;
  error(path: string, status: number, code: string, headers?: Record<string, string>): void;
}

export function mockApi(): MockApi {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  const json = { 'content-type': 'application/json' };
  return {
    agent,
    ok(path, data) {
      pool.intercept({ path: `/api/v1${path}`, method: 'GET' }).reply(200, { ok: true, data }, { headers: json });
    },
    error(path, status, code, headers = {}) {
      pool.intercept({ path: `/api/v1${path}`, method: 'GET' }).reply(status, { ok: false, error: { code, message: 'odmowa' } }, { headers: { ...json, ...headers } });
    },
  };
}
