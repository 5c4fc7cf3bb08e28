/**
 * Rate-limit politeness under a 429 storm with `Retry-After: 2`, counted at the sandbox per
 * key: after the first burst (the calls already in flight when the first 429 came back), no
 * request for that key arrives before the hint has passed. For the client with several calls
 * in flight per key, and for the monitor driven round after round through the hold.
 *
 * The bound is measured from the burst's last arrival at the sandbox, which is no later than
 * the client's receipt of its 429: a request earlier than that + 2 s is a request the hint
 * forbade. TIMER_SLACK_MS only absorbs Date.now() rounding against Node timers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CANARY_NAMES, type CanaryName } from '../../monitor/config/schema.js';
import { demoConfig } from '../../monitor/demo-config.js';
import { createMonitor } from '../../monitor/service.js';
import { type RunningSandbox, type SandboxRequestRecord, startSandbox } from '../../sandbox/index.js';
import { ApiKey, createClient, isRateLimitError } from '../../api/client/index.js';
import { createLogger } from '../../lib/logger.js';
import { TENANT_RESOURCES } from '../../api/contract/index.js';

const HINT_MS = 2_000;
const TIMER_SLACK_MS = 5;
const KEYS = [
  { alias: 'nowak-test', tenant: 'rowery-nowak' },
  { alias: 'kowalski-test', tenant: 'serwis-kowalski' },
] as const;
const IN_FLIGHT = 4;

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.setFaults('rate-limit-storm:2');
  sandbox.clearRequests();
});

function byKey(alias: string): SandboxRequestRecord[] {
  return sandbox
    .requests()
    .filter((r) => r.keyAlias === alias)
    .sort((a, b) => a.at - b.at);
}

interface Politeness {
  readonly burst: number;
  readonly later: number;
  /** ms from the burst's last arrival to the next request; undefined when none came. */
  readonly gapMs: number | undefined;
}

/** Splits one key's requests into the first burst (its known size) and what came after. */
function politeness(alias: string, burstSize: number): Politeness {
  const records = byKey(alias);
  const burst = records.slice(0, burstSize);
  const after = records.slice(burstSize);
  const burstEnd = Math.max(...burst.map((r) => r.at));
  const next = after[0];
  return { burst: burst.length, later: after.length, gapMs: next === undefined ? undefined : next.at - burstEnd };
}

describe('429 storm with Retry-After: 2', () => {
  it('client: several calls in flight per key; none is re-sent before the hint passes', async () => {
    const clients = KEYS.map((k) =>
      createClient({
        baseUrl: sandbox.baseUrl,
        apiKey: new ApiKey(sandbox.key(k.alias).key, k.alias),
        tenant: k.tenant,
        maxRetries: 1,
        logLevel: 'silent',
      }),
    );
    try {
      const calls = clients.flatMap((c) =>
        Array.from({ length: IN_FLIGHT }, (_, i) => c.list(TENANT_RESOURCES[i % TENANT_RESOURCES.length]!)),
      );
      const settled = await Promise.allSettled(calls);
      expect(settled.every((s) => s.status === 'rejected' && isRateLimitError(s.reason))).toBe(true);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    for (const { alias } of KEYS) {
      const seen = politeness(alias, IN_FLIGHT);
      expect(seen, alias).toMatchObject({ burst: IN_FLIGHT, later: IN_FLIGHT });
      expect(seen.gapMs, alias).toBeGreaterThanOrEqual(HINT_MS - TIMER_SLACK_MS);
    }
  });

  it('monitor: rounds keep coming every 250 ms, but a held key sends nothing until the hint passes', async () => {
    const canaries = Object.fromEntries(CANARY_NAMES.map((n) => [n, false])) as Record<CanaryName, boolean>;
    // Concurrency above the plan size: round one is one burst, all in flight at once.
    const config = demoConfig(sandbox, { aliases: KEYS.map((k) => k.alias), canaries, concurrency: 32, timeoutMs: 1_000 });
    const monitor = createMonitor(config, { logger: createLogger({ level: 'silent' }) });
    const burstOf = (alias: string) => monitor.plan().filter((p) => p.keyAlias === alias && p.endpoint !== 'docs').length;
    const started = Date.now();
    let rounds = 0;
    // Two whole rounds after the hint has surely passed, however slow a loaded runner makes them.
    let afterHint = 0;
    try {
      while (afterHint < 2 && Date.now() - started < 20_000) {
        if (Date.now() - started > HINT_MS + 300) afterHint += 1;
        await monitor.runOnce();
        rounds += 1;
        // Time is what is tested: a round every 250 ms while the hint runs.
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      await monitor.stop();
    }
    expect(rounds).toBeGreaterThanOrEqual(5);
    const held = monitor.history.recent().filter((e) => e.reason === 'held_retry_after');
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((e) => !e.sent)).toBe(true);
    for (const { alias } of KEYS) {
      const seen = politeness(alias, burstOf(alias));
      expect(seen.burst, alias).toBe(burstOf(alias));
      expect(seen.later, `${alias}: probed again once the hint passed`).toBeGreaterThan(0);
      expect(seen.gapMs, alias).toBeGreaterThanOrEqual(HINT_MS - TIMER_SLACK_MS);
    }
  });
});
