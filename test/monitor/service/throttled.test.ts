/**
 * What a 429 storm does to the monitor beyond the hold itself (politeness.test.ts): `/` and
 * `/docs` stay observed while one tenant is throttled, a hint written as a date or an epoch ends
 * when the server meant even when its clock and ours disagree, and the log says when a key's
 * throttling begins and ends instead of one line per probe. Rounds are driven by hand on the
 * monitor's own clock: seconds of schedule pass in milliseconds.
 */
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { createLogger } from '../../../lib/logger.js';
import { type Rig, latest, seriesValue, startRig } from '../helpers.js';

const QUIET = {
  invalid_key: false,
  public_docs: false,
  cross_tenant: false,
  other_header: false,
  platform_refused: false,
  index_access: false,
} as const;

async function withRig(rig: Rig, body: (rig: Rig) => Promise<void>): Promise<void> {
  try {
    await body(rig);
  } finally {
    await rig.close();
  }
}

it("a storm on one tenant holds the platform key, yet / and /docs go with another key: their outage still counts as the service's", async () => {
  let clock = Date.now();
  const rig = await startRig({ aliases: ['platform-test', 'nowak-test'], canaries: QUIET, timeoutMs: 5_000 }, { now: () => clock });
  await withRig(rig, async () => {
    rig.sandbox.setFaults('rate-limit-storm:600@/tenants/cykl-gdansk/*');
    await rig.monitor.runOnce();
    expect(latest(rig.monitor, { keyAlias: 'platform-test', tenant: 'cykl-gdansk', endpoint: 'bikes' })).toMatchObject({
      outcome: 'rate_limited',
      reason: 'status_429',
    });

    clock += 30_000;
    rig.sandbox.setFaults('rate-limit-storm:600@/tenants/cykl-gdansk/*;status:503@/docs');
    await rig.monitor.runOnce();
    // The platform key waits out its hint everywhere...
    expect(latest(rig.monitor, { keyAlias: 'platform-test', tenant: 'rowery-nowak', endpoint: 'bikes' })).toMatchObject({
      reason: 'held_retry_after',
      sent: false,
    });
    // ...but / and /docs (planned with it, the first key) went with nowak-test, and /docs's 503 is seen.
    expect(latest(rig.monitor, { keyAlias: 'platform-test', endpoint: 'index' })).toMatchObject({ outcome: 'ok', sent: true });
    expect(latest(rig.monitor, { keyAlias: 'platform-test', endpoint: 'docs' })).toMatchObject({ outcome: 'server_error', sent: true });
    expect(latest(rig.monitor, { keyAlias: 'platform-test', endpoint: 'docs' }).detail).toContain(
      'sent with key nowak-test: key platform-test waits out a 429',
    );
    const text = await rig.monitor.registry.metrics();
    const docs = { target: 'sandbox', endpoint: 'docs', tenant: '', key_alias: 'platform-test', check: 'read' };
    expect(seriesValue(text, 'repairmon_probe_consecutive_failures', { ...docs, class: 'service' })).toBe(1);
    // The platform key's gauge still says what it waits out.
    expect(seriesValue(text, 'repairmon_probe_retry_after_seconds', { target: 'sandbox', key_alias: 'platform-test' })).toBeGreaterThan(
      500,
    );
  });
});

for (const style of ['retry-after-date', 'x-ratelimit-epoch'] as const) {
  it(`${style}: a hint on a server clock 30 s ahead of ours ends when the server meant, not 30 s later`, async () => {
    // Our clock runs 30 s behind the sandbox's (which dates its hints and its Date header alike).
    let clock = Date.now() - 30_000;
    const rig = await startRig(
      { aliases: ['kowalski-test'], canaries: QUIET, timeoutMs: 5_000 },
      { now: () => clock },
      { dialect: `reference,rate-limit-headers=${style}` },
    );
    await withRig(rig, async () => {
      // A storm of about 12 s on a 2 s schedule, its hints 3-4 s ahead.
      rig.sandbox.setFaults('rate-limit-storm:3');
      for (let round = 0; round < 6; round += 1, clock += 2_000) await rig.monitor.runOnce();
      rig.sandbox.setFaults('');
      const heldAfter: string[] = [];
      for (let round = 0; round < 4; round += 1, clock += 2_000) {
        await rig.monitor.runOnce();
        heldAfter.push(latest(rig.monitor, { keyAlias: 'kowalski-test', endpoint: 'logs' }).reason);
      }
      // The last hint ran out at most 4 s (and a Date header's second) after the storm ended.
      expect(heldAfter.slice(3)).toEqual(['none']);
      expect(heldAfter.filter((r) => r === 'held_retry_after').length).toBeLessThanOrEqual(2);
    });
  });
}

it("a storm logs one line when a key's throttling begins and one when it ends, not one per probe", async () => {
  let clock = Date.now();
  const out = new PassThrough();
  const lines: Array<{ msg: string; keyAlias?: string; outcome?: string }> = [];
  out.on('data', (c: Buffer) =>
    lines.push(
      ...c
        .toString()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string }),
    ),
  );
  const rig = await startRig(
    { aliases: ['nowak-test', 'kowalski-test'], timeoutMs: 5_000 },
    { now: () => clock, logger: createLogger({ level: 'info', destination: out }) },
  );
  await withRig(rig, async () => {
    rig.sandbox.setFaults('rate-limit-storm:2@/tenants/**');
    for (let round = 0; round < 8; round += 1, clock += 2_100) await rig.monitor.runOnce();
    rig.sandbox.setFaults('');
    // The stretch ends with the first answer a whole schedule interval (15 s here) after the last 429.
    for (let round = 0; round < 2; round += 1, clock += 16_000) await rig.monitor.runOnce();
    await new Promise((r) => setImmediate(r));
    const began = lines.filter((l) => l.msg.startsWith('key rate limited'));
    const ended = lines.filter((l) => l.msg.startsWith('key answered again'));
    expect(began.map((l) => l.keyAlias).sort()).toEqual(['canary-invalid-key', 'kowalski-test', 'nowak-test']);
    expect(ended.map((l) => l.keyAlias).sort()).toEqual(['canary-invalid-key', 'kowalski-test', 'nowak-test']);
    expect(lines.filter((l) => l.outcome === 'rate_limited')).toEqual([]);
  });
});
