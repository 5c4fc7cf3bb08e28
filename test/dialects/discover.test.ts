/**
 * `repairmon discover` against every dialect, through the real CLI: it must name each choice the
 * dialect makes, as the hand-written preset table says it, from safe GETs only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectSettings } from '../../sandbox/dialect/index.js';
import type { DiscoveryReport, Refusal } from '../../discover/index.js';
import { ensureBuilt } from '../helpers/rig.js';
import { type SandboxProcess } from '../helpers/rig.js';
import { PRESETS, dialectSandbox, slugIn, truth } from '../helpers/dialects.js';
import { runMain } from '../helpers/fake-io.js';

const sandboxes = new Map<string, SandboxProcess>();
beforeAll(async () => {
  ensureBuilt();
  await Promise.all(PRESETS.map(async (p) => sandboxes.set(p, await dialectSandbox(p))));
});
afterAll(async () => Promise.all([...sandboxes.values()].map((s) => s.close())));

async function discover(preset: string, alias: string, tenant?: string): Promise<DiscoveryReport> {
  const sandbox = sandboxes.get(preset)!;
  const { key } = sandbox.key(alias);
  const run = await runMain(
    ['discover', '--base-url', sandbox.baseUrl, '--key-env', 'K', '--json', ...(tenant ? ['--tenant', tenant] : [])],
    { K: key },
  );
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout + run.stderr).not.toContain(key);
  return JSON.parse(run.stdout) as DiscoveryReport;
}

/** What a 401-or-403 `unauthorized`-family answer looks like in this dialect. */
function refusal(_d: DialectSettings, status: number, code: string): Refusal {
  return { status, code };
}

function expected(d: DialectSettings) {
  const platformRefusal: Refusal =
    d.platformRefusal === 'platform_key_required'
      ? { status: 403, code: 'platform_key_required' }
      : d.platformRefusal === 'not_found'
        ? { status: 404, code: 'not_found' }
        : refusal(d, d.unauthorizedStatus, 'unauthorized');
  const scopeRefusal: Refusal = d.scopeRefusal === 'not_found' ? { status: 404, code: 'not_found' } : { status: 403, code: d.scopeRefusal };
  const headers = {
    ietf: 'ietf',
    'ratelimit-field': 'ratelimit-field',
    'x-ratelimit-epoch': 'x-ratelimit-epoch',
    'x-ratelimit-delta': 'x-ratelimit-delta',
    'retry-after-date': 'none seen',
    none: 'none seen',
  }[d.rateLimitHeaders];
  return {
    indexAccess: d.index,
    invalidKey: refusal(d, d.unauthorizedStatus, 'unauthorized'),
    missingKey: refusal(d, d.unauthorizedStatus, d.missingKey),
    platformPaths: d.platformPaths,
    platformRefusal,
    scopeRefusal,
    slugStyle: d.slug === 'snake' ? 'snake' : 'kebab',
    rateLimitHeaders: headers,
  };
}

const reading = (report: DiscoveryReport, name: keyof DiscoveryReport['findings']): unknown => {
  const finding = report.findings[name];
  return finding.kind === 'learned' ? finding.reading : `unknown: ${finding.why}`;
};

describe.each(PRESETS)('repairmon discover against the %s dialect', (preset) => {
  const d = truth(preset);

  it('names every choice a key without the logs scope can observe', async () => {
    const report = await discover(preset, 'nowak-nologs-test', slugIn(d, 'rowery-nowak'));
    const want = expected(d);
    expect(report.host.kind).toBe('api_v1');
    expect({
      indexAccess: reading(report, 'indexAccess'),
      invalidKey: reading(report, 'invalidKey'),
      missingKey: reading(report, 'missingKey'),
      platformPaths: reading(report, 'platformPaths'),
      platformRefusal: reading(report, 'platformRefusal'),
      scopeRefusal: reading(report, 'scopeRefusal'),
      slugStyle: reading(report, 'slugStyle'),
      rateLimitHeaders: reading(report, 'rateLimitHeaders'),
      keyKind: reading(report, 'keyKind'),
    }).toEqual({ ...want, keyKind: 'tenant' });
    expect(report.requests.made).toBeLessThanOrEqual(report.requests.max);
  });

  it('what it learned narrows `repairmon openapi --dialect @-` to the dialect, the rest left open', async () => {
    const report = await discover(preset, 'nowak-nologs-test', slugIn(d, 'rowery-nowak'));
    const run = await runMain(['openapi', '--dialect', '@-'], {}, JSON.stringify(report));
    expect(run.code, run.stderr).toBe(0);
    const notes = (JSON.parse(run.stdout) as { 'x-readings': Record<string, { reading?: unknown }> })['x-readings'];
    const narrowed = Object.fromEntries(Object.entries(notes).map(([key, note]) => [key, note.reading]));
    // Only a 429 tells retry-after-date from none, and discovery provokes none: that point stays open.
    const seen = d.rateLimitHeaders === 'retry-after-date' || d.rateLimitHeaders === 'none' ? undefined : d.rateLimitHeaders;
    expect(narrowed).toMatchObject({
      slug: d.slug === 'snake' ? 'snake' : 'kebab',
      index: d.index,
      'unauthorized-status': d.unauthorizedStatus,
      'missing-key': d.missingKey,
      'scope-refusal': d.scopeRefusal,
      'platform-paths': d.platformPaths,
      'platform-refusal': d.platformRefusal,
      'rate-limit-headers': seen,
    });
  });

  it('tells a platform key by the listed /platform/ paths', async () => {
    const report = await discover(preset, 'platform-test');
    expect(reading(report, 'keyKind')).toBe('platform');
    expect(reading(report, 'platformPaths')).toEqual(d.platformPaths);
  });
});
