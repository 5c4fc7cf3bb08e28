/**
 * The README and docs/ are read in a checkout and in the installed package. Every relative link
 * leads to an existing file (and heading), and every repo file they point a user to (a relative
 * link, or a backticked path such as `deploy/prometheus/alerting-rules.yml`) ships in the
 * package: package.json `files` is compared directly, no npm pack needed.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const PAGES = ['README.md', 'CHANGELOG.md', ...DOCS];
const FILES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
/** What npm packs whatever `files` says. */
const ALWAYS_PACKED = /^(package\.json|README(\.md)?|LICEN[CS]E(\.\w+)?)$/i;
/** Only in a checkout, named for contributors running its tests, benchmarks and CI. */
const CHECKOUT_ONLY = ['bench/', 'test/', '.ci/'];
/** The README's map of the checkout's folders, for contributors: exists, need not ship. */
const LAYOUT = /<!-- section:layout -->[\s\S]*?<!-- \/section:layout -->/;
/** A backticked path is a repo path when its first segment is one of these. */
const TOP_LEVEL = new Set(readdirSync(ROOT).filter((e) => !['node_modules', 'dist', '.git'].includes(e)));

interface Ref {
  readonly page: string;
  /** Repo-relative; '' for an anchor on the same page. */
  readonly path: string;
  readonly anchor: string | undefined;
  readonly mustShip: boolean;
}

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const withoutFences = (text: string): string => text.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's heading ids: lower case, punctuation dropped, each space a hyphen; repeats get -1, -2. */
function anchors(path: string): Set<string> {
  const text = withoutFences(read(path));
  const ids = new Set([...text.matchAll(/<a id="([^"]+)">/g)].map((m) => m[1] ?? ''));
  const seen = new Map<string, number>();
  for (const [, heading = ''] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    ids.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return ids;
}

function refs(page: string): Ref[] {
  const text = withoutFences(read(page));
  const shipped = page === 'README.md' ? text.replace(LAYOUT, '') : text;
  const found = (body: string, mustShip: boolean): Ref[] => [
    ...[...body.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1] ?? '')
      .filter((target) => !/^[a-z]+:/i.test(target))
      .map((target) => {
        const [file = '', anchor] = target.split('#');
        const path = file === '' ? '' : relative(ROOT, resolve(ROOT, dirname(page), file));
        return { page, path, anchor, mustShip };
      }),
    ...[...body.matchAll(/`([^`\s]+\/[^`\s]*)`/g)]
      .map((m) => (m[1] ?? '').replace(/[*<].*$/, '').split('#'))
      .filter(([path = '']) => TOP_LEVEL.has(path.split('/')[0] ?? ''))
      .map(([path = '', anchor]) => ({ page, path, anchor, mustShip })),
  ];
  return [...found(text.match(LAYOUT)?.[0] ?? '', false), ...found(shipped, true)];
}

const ALL = PAGES.flatMap(refs);
const packed = (path: string): boolean => {
  const bare = path.replace(/\/$/, '');
  return ALWAYS_PACKED.test(bare) || FILES.some((entry) => bare === entry || bare.startsWith(`${entry}/`));
};

describe('README.md and docs/', () => {
  it('every relative link and backticked repo path leads to an existing file, and every anchor to a heading', () => {
    const broken = ALL.filter((r) => r.path !== '' && !existsSync(join(ROOT, r.path))).map((r) => `${r.page}: ${r.path}`);
    const badAnchors = ALL.filter((r) => r.anchor !== undefined && (r.path === '' || r.path.endsWith('.md')))
      .filter((r) => existsSync(join(ROOT, r.path || r.page)) && !anchors(r.path || r.page).has(r.anchor ?? ''))
      .map((r) => `${r.page}: ${r.path}#${r.anchor ?? ''}`);
    expect(ALL.length).toBeGreaterThan(50);
    expect([...broken, ...badAnchors]).toEqual([]);
  });

  it('every file they point a user to is in the published package (package.json files)', () => {
    const missing = ALL.filter((r) => r.mustShip && r.path !== '' && !CHECKOUT_ONLY.some((p) => r.path.startsWith(p)) && !packed(r.path));
    expect(missing.map((r) => `${r.page}: ${r.path}`)).toEqual([]);
    for (const page of PAGES) expect(packed(page), page).toBe(true);
  });

  it('the README stays a five-minute read that links every docs page', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    for (const page of DOCS) expect(readme, page).toContain(`](${page})`);
  });
});
