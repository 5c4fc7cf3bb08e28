/** The rate driver (fake clock), and the configs each side of the monitor comparison runs on. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { BLACKBOX_MODULE, OK_BODY_REGEXP, blackboxConfigYaml, dueCount, startRateDriver } from '../../bench/lib/blackbox.js';
import { BENCH_KEY_ENV, benchKeyAlias, benchMonitorYaml } from '../../bench/lib/monitor-process.js';
import { addSides, keysForRate, perThousand } from '../../bench/monitor-vs-blackbox.js';
import { parseConfigText } from '../../monitor/config/load.js';
import { buildPlan } from '../../monitor/probe/plan.js';

const FAKE_KEY = 'rs_test_0123456789abcdef0123456789abcdef';

afterEach(() => {
  vi.useRealTimers();
});

describe('rate driver', () => {
  it('counts the firings due, the one at t = 0 included', () => {
    expect(dueCount(-1, 50)).toBe(0);
    expect(dueCount(0, 50)).toBe(1);
    expect(dueCount(999, 50)).toBe(50);
    expect(dueCount(1000, 50)).toBe(51);
  });

  it('fires at the rate on a fake clock, failed firings included, and stops', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const driver = startRateDriver(
      10,
      async () => {
        calls += 1;
        if (calls % 2 === 0) throw new Error('refused');
      },
      () => Date.now(),
    );
    await vi.advanceTimersByTimeAsync(2_000);
    await driver.stop();
    expect(calls).toBe(21);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(21);
  });

  it('refuses a rate that is not positive', () => {
    expect(() => startRateDriver(0, async () => true)).toThrow(/rate must be above 0/);
  });
});

describe('blackbox_exporter side', () => {
  it('writes one http module with the auth header, 200 only and the envelope regex', () => {
    const config = YAML.parse(blackboxConfigYaml(FAKE_KEY, 'bearer', 500)) as {
      modules: Record<string, { prober: string; timeout: string; http: Record<string, unknown> }>;
    };
    const module = config.modules[BLACKBOX_MODULE];
    expect(module?.prober).toBe('http');
    expect(module?.timeout).toBe('500ms');
    expect(module?.http['valid_status_codes']).toEqual([200]);
    expect(module?.http['fail_if_body_not_matches_regexp']).toEqual([OK_BODY_REGEXP]);
    expect(module?.http['headers']).toMatchObject({ authorization: `Bearer ${FAKE_KEY}` });
    expect(new RegExp(OK_BODY_REGEXP).test('{"ok": true,"data":[]}')).toBe(true);
    expect(new RegExp(OK_BODY_REGEXP).test('{"ok":false}')).toBe(false);
  });
});

describe('monitor side', () => {
  it('gives the plan size that keysForRate promises, through the real config parser, with the key only by reference', () => {
    const { keys, perTick } = keysForRate(50);
    expect({ keys, perTick }).toEqual({ keys: 12, perTick: 50 });
    const yaml = benchMonitorYaml({
      baseUrl: 'http://127.0.0.1:1/api/v1',
      keys,
      tenant: 'rowery-nowak',
      schedule: '* * * * * *',
      timeout: '500ms',
      canaries: false,
    });
    expect(yaml).not.toContain(FAKE_KEY);
    expect(yaml).toContain(`\${${BENCH_KEY_ENV}}`);
    const parsed = parseConfigText(yaml, { env: { [BENCH_KEY_ENV]: FAKE_KEY }, baseDir: '/' });
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    if (parsed.ok) expect(buildPlan(parsed.config)).toHaveLength(perTick);
    expect(benchKeyAlias(0)).toBe('bench-00001');
  });

  it('never rounds to zero keys, and has no per-1000 figure without probes', () => {
    expect(keysForRate(1).keys).toBe(1);
    expect(perThousand(2, 1000)).toBe(2);
    expect(perThousand(2, 0)).toBeNaN();
  });

  it('adds rounds up and recomputes CPU per 1000 probes from the totals, not from an average of ratios', () => {
    const side = (cpuSeconds: number, probes: number, rssBytes: number) => ({
      cpuSeconds,
      systemSeconds: cpuSeconds / 2,
      windowSeconds: 10,
      probes,
      ok: probes,
      cpuSecondsPer1000: perThousand(cpuSeconds, probes),
      rssBytes,
    });
    const sum = addSides([side(1, 1000, 5), side(3, 500, 9)]);
    expect(sum).toMatchObject({ cpuSeconds: 4, systemSeconds: 2, windowSeconds: 20, probes: 1500, ok: 1500, rssBytes: 9 });
    expect(sum.cpuSecondsPer1000).toBeCloseTo(4 / 1.5, 9);
  });
});
