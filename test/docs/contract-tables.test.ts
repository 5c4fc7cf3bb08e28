/**
 * The docs' lists of endpoints and tenant resources are generated from the contract: each sits
 * between `<!-- NAME -->` and `<!-- /NAME -->` markers, and this test fails when one drifts from
 * `api/contract/api.ts`. After changing the contract, rewrite them with
 * `UPDATE_DOCS=1 npx vitest run test/docs/contract-tables.test.ts`.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, TENANT_RESOURCES } from '../../api/contract/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((p) => p.endsWith('.md'));

const ACCESS: Readonly<Record<string, string>> = {
  public: 'public, no key',
  any_key: 'any valid key',
  platform: 'platform key',
  tenant: "platform key, or the tenant's own key",
};

/** What goes between each pair of markers. */
const GENERATED: Readonly<Record<string, string>> = {
  resources: TENANT_RESOURCES.map((r) => `\`${r}\``).join(', '),
  endpoints: [
    '',
    '| Endpoint (metric `endpoint`) | Path below `{base_url}` | Who may call | Returns |',
    '| --- | --- | --- | --- |',
    ...ENDPOINTS.map((e) => `| \`${e.id}\` | \`GET ${e.pathTemplate}\` | ${ACCESS[e.access] ?? e.access} | ${e.returns} |`),
    '',
  ].join('\n'),
};

function regenerate(text: string): string {
  return Object.entries(GENERATED).reduce(
    (out, [name, body]) =>
      out.replace(
        new RegExp(`(<!-- ${name} -->)[\\s\\S]*?(<!-- /${name} -->)`, 'g'),
        (_, open: string, close: string) => open + body + close,
      ),
    text,
  );
}

describe('docs generated from the contract', () => {
  it.each(PAGES)('%s: every generated block matches api/contract/api.ts', (page) => {
    const file = join(ROOT, page);
    const text = readFileSync(file, 'utf8');
    const fresh = regenerate(text);
    if (process.env['UPDATE_DOCS'] === '1' && fresh !== text) writeFileSync(file, fresh);
    else expect(text, 'run UPDATE_DOCS=1 npx vitest run test/docs/contract-tables.test.ts').toBe(fresh);
  });

  it('the blocks exist: the endpoint table once, the resource list on the pages that name them', () => {
    const all = PAGES.map((p) => readFileSync(join(ROOT, p), 'utf8')).join('\n');
    expect(all.match(/<!-- endpoints -->/g)).toHaveLength(1);
    expect((all.match(/<!-- resources -->/g) ?? []).length).toBeGreaterThanOrEqual(5);
    expect(regenerate('<!-- resources -->x<!-- /resources -->')).toBe(`<!-- resources -->${GENERATED['resources']}<!-- /resources -->`);
  });
});
