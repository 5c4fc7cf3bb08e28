import { describe, expect, it, vi } from 'vitest';
import { FAULT_KINDS, parseFaultSpec, planFaults } from '../../sandbox/faults/parse.js';

function rules(spec: string) {
  const parsed = parseFaultSpec(spec);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.rules;
}

describe('fault spec parsing', () => {
  it('parses the documented example', () => {
    const parsed = rules('latency:2000@/tenants/*/bikes%0.5;rate-limit-storm:2;reset@/docs');
    expect(parsed.map((r) => [r.action, r.glob, r.probability])).toEqual([
      [{ kind: 'latency', ms: 2000 }, '/tenants/*/bikes', 0.5],
      [{ kind: 'rate-limit-storm', retryAfterSeconds: 2 }, undefined, 1],
      [{ kind: 'reset' }, '/docs', 1],
    ]);
  });

  it('accepts every kind with its argument', () => {
    const spec =
      'latency:5;rate-limit-storm;status:503;html-502;broken-envelope;invalid-json;ok-without-data;error-without-code;plain-error-bodies;reset;stall;oversized:1024;isolation-breach;redirect:http://localhost:1/x';
    expect(new Set(rules(spec).map((r) => r.action.kind))).toEqual(new Set(FAULT_KINDS));
  });

  it('keeps a redirect URL with ":" and "@" whole', () => {
    expect(rules('redirect:https://user@example.com:8443/a%20b@/docs')[0]).toMatchObject({
      action: { kind: 'redirect', url: 'https://user@example.com:8443/a%20b' },
      glob: '/docs',
    });
  });

  it('an empty spec and stray separators mean no faults', () => {
    expect(rules('')).toEqual([]);
    expect(rules(' ; ;')).toEqual([]);
  });

  it.each([
    ['teleport', /unknown fault kind "teleport"/],
    ['latency', /"latency" needs milliseconds/],
    ['latency:fast', /"latency" needs milliseconds.*"fast"/],
    ['status:404', /"status" needs one of 500, 502, 503/],
    ['oversized:0', /"oversized" needs a byte count/],
    ['redirect:ftp://x', /"redirect" needs an http\(s\) URL/],
    ['reset:3', /"reset" takes no argument/],
    ['status:500%1.5', /probability "1.5"/],
    ['status:500%', /probability ""/],
    ['status:500@docs', /must start with "\/"/],
  ])('rejects %s naming the problem', (spec, message) => {
    const parsed = parseFaultSpec(spec);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});

describe('fault planning', () => {
  it('adds latencies, flags a breach and lets the first response fault win', () => {
    const plan = planFaults(rules('latency:10;latency:5;isolation-breach;status:502;reset'), '/docs', () => 0);
    expect(plan).toMatchObject({ latencyMs: 15, breach: true, response: { kind: 'status', status: 502 } });
    expect(plan.fired).toEqual(['latency:10', 'latency:5', 'isolation-breach', 'status:502']);
  });

  it('with no rule, plans nothing and rolls no dice', () => {
    const random = vi.fn(() => 0);
    expect(planFaults([], '/docs', random)).toEqual({ latencyMs: 0, breach: false, response: undefined, fired: [] });
    expect(random).not.toHaveBeenCalled();
  });

  it('glob rules never match paths outside /api/v1; unscoped rules do', () => {
    expect(planFaults(rules('reset@/**'), undefined, () => 0).response).toBeUndefined();
    expect(planFaults(rules('reset'), undefined, () => 0).response).toEqual({ kind: 'reset' });
  });

  it('matches globs by whole segments, tolerating a trailing slash', () => {
    const r = rules('reset@/tenants/*/bikes');
    expect(planFaults(r, '/tenants/a/bikes', () => 0).response).toBeDefined();
    expect(planFaults(r, '/tenants/a/bikes/', () => 0).response).toBeDefined();
    expect(planFaults(r, '/tenants/a/b/bikes', () => 0).response).toBeUndefined();
    expect(planFaults(r, '/tenants/a/bikesx', () => 0).response).toBeUndefined();
    expect(planFaults(rules('reset@/'), '/', () => 0).response).toBeDefined();
  });

  it('probability 0 never fires and never consumes randomness', () => {
    let calls = 0;
    const plan = planFaults(rules('reset%0;status:500%1'), '/', () => ((calls += 1), 0));
    expect(plan.response).toEqual({ kind: 'status', status: 500 });
    expect(calls).toBe(0);
  });
});
