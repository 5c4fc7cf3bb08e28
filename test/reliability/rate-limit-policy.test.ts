/**
 * One 429 policy (`RATE_LIMIT_POLICY`, `api/client/retry.ts`) with three uses: the client's backoff and
 * pause, the monitor's hold, the probe's pacing. Each use is checked against the policy's value,
 * so a change to the policy moves all three, and none can keep a copy of its own.
 */
import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_POLICY } from '../../api/client/index.js';
import { createRateLimitGate, decideRetry } from '../../api/client/retry.js';
import { DEFAULT_MAX_WAIT_S, parseTarget, runDiagnosis } from '../../diagnose/index.js';
import { parseDuration } from '../../monitor/config/duration.js';
import { configSchema } from '../../monitor/config/schema.js';

const NOW = 1_800_000_000_000;
const limited = (attempt: number, random: number) =>
  decideRetry({
    attempt,
    maxRetries: 10,
    outcome: { kind: 'status', status: 429, headers: {} },
    now: NOW,
    random,
    deadline: NOW + 600_000,
    maxRetryAfterMs: 30_000,
    minAttemptWindowMs: 0,
  });

describe('the 429 policy', () => {
  it("the client backs off a hintless 429 from the policy's base to its cap", () => {
    const { baseMs, capMs } = RATE_LIMIT_POLICY.backoffMs;
    expect(limited(1, 1)).toMatchObject({ retry: true, delayMs: baseMs, basis: 'backoff' });
    expect(limited(1, 0)).toMatchObject({ delayMs: baseMs / 2 });
    expect(limited(10, 1)).toMatchObject({ delayMs: capMs });
  });

  it("the client's pause and the monitor's default hold are the policy's longest hold", () => {
    const gate = createRateLimitGate();
    gate.pause(0, { source: 'retry-after', delayMs: 1e15 });
    expect(gate.current(0)?.until).toBe(RATE_LIMIT_POLICY.maxHoldMs);
    const unset = configSchema.shape.maxRateLimitHold.parse(undefined);
    expect(parseDuration(unset)).toBe(RATE_LIMIT_POLICY.maxHoldMs);
  });

  it("the probe waits at most the policy's probe wait by default", async () => {
    expect(DEFAULT_MAX_WAIT_S * 1000).toBe(RATE_LIMIT_POLICY.probeMaxWaitMs);
    const target = parseTarget('http://127.0.0.1:9/api/v1');
    if (!target.ok) throw new Error(target.reason);
    const { ApiKey } = await import('../../api/client/index.js');
    const { MockAgent } = await import('undici');
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('http://127.0.0.1:9')
      .intercept({ path: '/api/v1/docs' })
      .reply(429, { ok: false, error: { code: 'rate_limited', message: 'x' } }, { headers: { 'retry-after': '3600' } });
    const report = await runDiagnosis({
      target: target.target,
      key: new ApiKey('rk_test_policy_0123456789abcdef', 'k'),
      auth: 'x-api-key',
      platformPaths: undefined,
      tenant: undefined,
      timeoutS: 1,
      dispatcher: agent,
      wait: async () => undefined,
    });
    expect(report.traffic.maxWaitMs).toBe(RATE_LIMIT_POLICY.probeMaxWaitMs);
    expect(report.traffic.stopped).toMatchObject({ kind: 'rate_limited', why: 'too_long' });
    await agent.close();
  });
});
