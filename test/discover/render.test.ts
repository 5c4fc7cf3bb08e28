/** The three views of one report: the table, the JSON document, the monitor-config fragment. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { targetSchema } from '../../monitor/config/schema.js';
import { renderDiscoveryJson, renderDiscoveryTable, renderMonitorConfig } from '../../discover/index.js';
import { FINDING_NAMES } from '../../discover/report.js';
import { BASE, DOCS, discover, noAnswer, ok, plain, referenceApi, refuse } from './fixtures.js';

/** The fields a monitor target has for the readings, strictly: no other key may appear. */
const readingFields = targetSchema.pick({ indexAccess: true, platformPaths: true }).strict();

describe('table', () => {
  it('one row per choice with its reading and evidence, then what a key and a tenant would add', async () => {
    const { report } = await discover(referenceApi());
    const lines = renderDiscoveryTable(report).split('\n');
    expect(lines[0]).toBe(`repairmon discover ${BASE}  no key  no tenant  4 of at most 11 GET requests`);
    expect(lines[2]).toMatch(/^CHOICE\s+READING\s+EVIDENCE$/);
    expect(lines.slice(3, 3 + FINDING_NAMES.length).map((l) => l.split(/\s+/)[0])).toEqual([...FINDING_NAMES]);
    expect(lines).toContainEqual(expect.stringMatching(/^indexAccess\s+key\s+GET \/ without a key -> HTTP 401 unauthorized$/));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^invalidKey\s+HTTP 401 unauthorized\s+GET \/tenants\/\S+\/clients with a made-up key -> HTTP 401 unauthorized$/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^platformPaths\s+tenants, keys\s+GET \/docs without a key lists/));
    expect(lines).toContainEqual(expect.stringMatching(/^keyKind\s+unknown\s+needs a key/));
    expect(lines).toContain(
      'Needs a key to learn: keyKind, platformRefusal, readableResources, scopeRefusal, rateLimitHeaders (pass --key-env VAR, --key-file PATH or --key-stdin)',
    );
    expect(lines).toContain('Needs --tenant SLUG to learn: readableResources, scopeRefusal');
  });

  it('a host that is not API v1: the reason, no table', async () => {
    const { report } = await discover(referenceApi({ overrides: { docs: noAnswer() } }));
    const text = renderDiscoveryTable(report);
    expect(text).toContain("NOT API v1: GET /docs without a key -> no answer (connection ECONNREFUSED): not API v1's public catalog");
    expect(text).not.toContain('CHOICE');
  });

  it('a server string cannot move the cursor', async () => {
    const { report } = await discover(referenceApi({ overrides: { index: refuse(401, 'bad\u001b[2Jcode') } }));
    expect(renderDiscoveryTable(report)).not.toContain('\u001b');
  });

  it('an empty list reads (none)', async () => {
    const { report } = await discover(referenceApi({ key: 'tenant' }), { key: true, tenant: 'serwis-kowalski' });
    expect(renderDiscoveryTable(report)).toMatch(/^readableResources\s+\(none\)\s+GET \/tenants\/serwis-kowalski/m);
  });
});

describe('JSON', () => {
  it('one document with the stable shape: every finding learned or unknown, the key only as its hint', async () => {
    const { report } = await discover(referenceApi({ key: 'nologs' }), { key: true, tenant: 'rowery-nowak' });
    const doc = JSON.parse(renderDiscoveryJson(report)) as typeof report;
    expect(doc).toEqual(report);
    expect(Object.keys(doc)).toEqual([
      'tool',
      'baseUrl',
      'auth',
      'keyHint',
      'tenant',
      'host',
      'findings',
      'needKey',
      'needTenant',
      'requests',
      'exitCode',
    ]);
    expect(Object.keys(doc.findings)).toEqual([...FINDING_NAMES]);
    expect(doc.keyHint).toBe('…wXyZ');
    expect(doc.findings).toMatchObject({
      indexAccess: { kind: 'learned', reading: 'key' },
      invalidKey: { kind: 'learned', reading: { status: 401, code: 'unauthorized' } },
      missingKey: { kind: 'learned', reading: { status: 401, code: 'unauthorized' } },
      platformPaths: { kind: 'learned', reading: ['tenants', 'keys'] },
      keyKind: { kind: 'learned', reading: 'tenant' },
      platformRefusal: { kind: 'learned', reading: { status: 403, code: 'platform_key_required' } },
      readableResources: { kind: 'learned', reading: ['clients', 'bikes', 'repairs'] },
      scopeRefusal: { kind: 'learned', reading: { status: 403, code: 'insufficient_scope' } },
      slugStyle: { kind: 'learned', reading: 'kebab' },
      rateLimitHeaders: { kind: 'learned', reading: 'ietf' },
      requestIdHeader: { kind: 'learned', reading: 'x-request-id' },
    });
    for (const name of FINDING_NAMES) expect(Object.keys(doc.findings[name]).sort()).toEqual(['evidence', 'kind', 'reading']);
  });

  it('without a key: keyHint and tenant null', async () => {
    const { report } = await discover(referenceApi());
    const doc = JSON.parse(renderDiscoveryJson(report)) as Record<string, unknown>;
    expect(doc).toMatchObject({ keyHint: null, tenant: null, exitCode: 0 });
  });
});

describe('--emit monitor-config', () => {
  it('the learned readings, each under its evidence, valid for a target', async () => {
    const { report } = await discover(referenceApi());
    const text = renderMonitorConfig(report);
    expect(text.split('\n')).toEqual([
      `# Discovered by repairmon discover from ${BASE} (4 GET requests).`,
      '# Paste under a target in monitor.yaml.',
      '',
      '# GET / without a key -> HTTP 401 unauthorized',
      'indexAccess: key',
      '# GET /docs without a key lists /platform/tenants, /platform/keys',
      'platformPaths: [ tenants, keys ]',
      '',
    ]);
    expect(readingFields.parse(parse(text))).toEqual({ indexAccess: 'key', platformPaths: ['tenants', 'keys'] });
  });

  it('public index', async () => {
    const { report } = await discover(referenceApi({ overrides: { index: ok({}) } }));
    expect(readingFields.parse(parse(renderMonitorConfig(report)))).toMatchObject({ indexAccess: 'public' });
  });

  it('unknown readings get the defaults, with the reason as the comment', async () => {
    const { report } = await discover(referenceApi({ overrides: { index: plain(503, 'down'), docs: ok({ endpoints: DOCS.endpoints }) } }));
    const text = renderMonitorConfig(report);
    expect(text).toContain('# unknown, so the default: GET / without a key -> HTTP 503, no envelope (text/plain): neither 2xx');
    expect(text).toContain('# unknown, so the default: /docs lists no /platform/ sub-path');
    expect(readingFields.parse(parse(text))).toEqual({ indexAccess: 'unknown', platformPaths: [] });
  });

  it('pasted under a target, the whole target passes the schema', async () => {
    const { report } = await discover(referenceApi());
    const fragment = renderMonitorConfig(report)
      .split('\n')
      .map((l) => (l === '' ? l : `  ${l}`))
      .join('\n');
    const yaml = `- name: real\n  baseUrl: ${BASE}\n  keys:\n    - { alias: k, kind: tenant, tenant: rowery-nowak, secret: "\${K}" }\n${fragment}`;
    const [target] = parse(yaml) as unknown[];
    expect(targetSchema.parse(target)).toMatchObject({ indexAccess: 'key', platformPaths: ['tenants', 'keys'] });
  });
});
