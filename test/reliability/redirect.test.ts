/**
 * A redirect to another origin never carries the key there. The "other origin" is a second
 * server on another port that records every request with its headers; the sandbox (302) and a
 * scripted origin (301, 303, 307, 308) point at it. The client (both auth schemes, every
 * endpoint kind) and the monitor (both header forms, canaries on) must leave it untouched.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoConfig } from '../../monitor/demo-config.js';
import { createMonitor } from '../../monitor/service.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { type ApiError, ApiKey, createClient, isApiError } from '../../api/client/index.js';
import { AUTH_SCHEMES } from '../../api/contract/index.js';
import { createLogger } from '../../lib/logger.js';
import { type Scripted, startScripted } from './fault-rig.js';
import { type Recorder, startRecorder } from './helpers.js';

let sandbox: RunningSandbox;
let other: Recorder;
let scripted: Scripted;

beforeAll(async () => {
  [sandbox, other, scripted] = await Promise.all([startSandbox(), startRecorder(), startScripted()]);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), other.close(), scripted.close()]);
});
beforeEach(() => {
  other.seen.length = 0;
});

/** Every header value any request to the other origin carried. */
function valuesSeen(): string[] {
  return other.seen.flatMap((r) => Object.values(r.headers).flatMap((v) => (Array.isArray(v) ? v : [v ?? ''])));
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('cross-origin redirect', () => {
  it('the recorder does record what reaches it (so an empty log means something)', async () => {
    await fetch(`${other.origin}/control`, { headers: { 'x-control': 'yes' } });
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]?.headers['x-control']).toBe('yes');
  });

  it.each(AUTH_SCHEMES)('client (%s): a 302 from the sandbox is not followed, on every endpoint kind', async (authScheme) => {
    sandbox.setFaults(`redirect:${other.origin}/collect`);
    const key = sandbox.key('platform-test');
    const client = createClient({
      baseUrl: sandbox.baseUrl,
      apiKey: new ApiKey(key.key, 'platform-test'),
      authScheme,
      tenant: 'rowery-nowak',
      maxRetries: 2,
    });
    try {
      const errors = await Promise.all(
        [client.index(), client.docs(), client.list('clients'), client.platform.get('tenants')].map(rejection),
      );
      expect(errors.map((e) => e.status)).toEqual([302, 302, 302, 302]);
      expect(errors.every((e) => e.attempts === 1 && !JSON.stringify(e).includes(key.key))).toBe(true);
    } finally {
      sandbox.setFaults('');
      await client.close();
    }
    expect(other.seen).toEqual([]);
  });

  it.each([301, 303, 307, 308])('client: a %i to the other origin is not followed either', async (status) => {
    scripted.set(status, '', { location: `${other.origin}/collect` });
    const client = createClient({
      baseUrl: scripted.baseUrl,
      apiKey: new ApiKey('rs_test_redirect_secret_value_1234', 'k'),
      tenant: 'rowery-nowak',
    });
    try {
      expect((await rejection(client.list('bikes'))).status).toBe(status);
    } finally {
      await client.close();
    }
    expect(other.seen).toEqual([]);
  });

  it('monitor: a round with both header forms and every canary sends nothing to the other origin', async () => {
    sandbox.setFaults(`redirect:${other.origin}/collect`);
    const monitor = createMonitor(demoConfig(sandbox, { timeoutMs: 5_000, mixAuth: true }), { logger: createLogger({ level: 'silent' }) });
    try {
      await monitor.runOnce();
      const entries = monitor.history.recent();
      expect(entries.length).toBe(monitor.plan().length);
      expect(new Set(entries.map((e) => `${e.outcome}/${e.reason}`))).toEqual(new Set(['redirect/redirect_302']));
    } finally {
      sandbox.setFaults('');
      await monitor.stop();
    }
    expect(other.seen).toEqual([]);
    const secrets = sandbox.keys.map((k) => k.key);
    expect(valuesSeen().filter((v) => secrets.some((s) => v.includes(s)))).toEqual([]);
  });
});
