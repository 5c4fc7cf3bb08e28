/** A miss on /probe names enough aliases to spot a typo, not every alias of a 5 000-key target; a hit finds a key's read whatever its expect. */
import { describe, expect, it } from 'vitest';
import { indexProbes, pickProbe } from '../../../monitor/http/debug-probe.js';
import { spec } from '../metrics/table-helpers.js';

describe('/probe on an unknown key', () => {
  it('lists 20 aliases and counts the rest', () => {
    const index = indexProbes(Array.from({ length: 25 }, (_, i) => spec(`key-${i}`, 'rowery-nowak')));
    const pick = pickProbe({ target: 'test', key: 'nope', endpoint: 'clients', tenant: null, check: null }, index);
    expect(pick).toMatchObject({ ok: false, status: 404 });
    const message = pick.ok ? '' : pick.message;
    expect(message).toContain('key-0, key-1');
    expect(message).toContain('key-19 and 5 more');
    expect(message).not.toContain('key-20');
  });

  it('lists every alias of a small target, and says when the target is unknown', () => {
    const index = indexProbes([spec('a', 'rowery-nowak'), spec('b', 'rowery-nowak')]);
    const miss = (target: string) => pickProbe({ target, key: 'nope', endpoint: 'clients', tenant: null, check: null }, index);
    expect(miss('test')).toMatchObject({ message: expect.stringMatching(/aliases of this target: a, b$/) });
    expect(miss('other')).toMatchObject({ message: expect.stringMatching(/\(none: unknown target\)$/) });
  });
});

describe("/probe on a read the key's expect refuses", () => {
  it("is found as the key's read of that endpoint (check left out or `read`), and as check=expected_refusal", () => {
    const refused = { ...spec('nowak-nologs', 'rowery-nowak'), check: 'expected_refusal' as const };
    const index = indexProbes([refused]);
    for (const check of [null, 'read', 'expected_refusal']) {
      expect(pickProbe({ target: 'test', key: 'nowak-nologs', endpoint: 'clients', tenant: null, check }, index), String(check)).toEqual({
        ok: true,
        spec: refused,
      });
    }
  });
});
