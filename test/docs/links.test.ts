/**
 * The README and docs/ are read in a checkout and in the installed package. Every relative link
 * leads to an existing file (and heading), and every repo file they point a user to (a relative
 * link, or a backticked path such as `deploy/prometheus/alerting-rules.yml`) ships in the
 * package; and every relative link of every Markdown file the package ships (the folders'
 * READMEs too) resolves inside it. What ships is what `npm pack --dry-run --json` lists, asked
 * once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const PAGES = ['README.md', 'CHANGELOG.md', ...DOCS];
/** The package's files, as npm would pack them (--ignore-scripts: no build first). */
const PACKED: readonly string[] = (
  JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 }),
  ) as Array<{ files: Array<{ path: string }> }>
)[0]!.files.map((f) => f.path);
/** Only in a checkout, named for contributors running its tests, benchmarks and CI. */
const CHECKOUT_ONLY = ['bench/', 'test/', '.ci/', 'CONTRIBUTING.md'];
/** CONTRIBUTING.md's map of the checkout's folders, for contributors: exists, need not ship. */
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
  const shipped = text.replace(LAYOUT, '');
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

const ALL = [...PAGES, 'CONTRIBUTING.md'].flatMap(refs);
const packed = (path: string): boolean => {
  const bare = path.replace(/\/$/, '');
  return PACKED.some((file) => file === bare || file.startsWith(`${bare}/`));
};

/** Every relative link target of a Markdown file, resolved against it (anchors and URLs left out). */
function links(page: string): string[] {
  return [...withoutFences(read(page)).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] ?? '').split('#')[0] ?? '')
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target))
    .map((target) => posix.normalize(posix.join(posix.dirname(page), target)));
}

describe('README.md and docs/', () => {
  it('every relative link and backticked repo path leads to an existing file, and every anchor to a heading', () => {
    const broken = ALL.filter((r) => r.path !== '' && !existsSync(join(ROOT, r.path))).map((r) => `${r.page}: ${r.path}`);
    const badAnchors = ALL.filter((r) => r.anchor !== undefined && (r.path === '' || r.path.endsWith('.md')))
      .filter((r) => existsSync(join(ROOT, r.path || r.page)) && !anchors(r.path || r.page).has(r.anchor ?? ''))
      .map((r) => `${r.page}: ${r.path}#${r.anchor ?? ''}`);
    expect(ALL.length).toBeGreaterThan(50);
    expect([...broken, ...badAnchors]).toEqual([]);
  });

  it('every file they point a user to is in the published package (npm pack)', () => {
    const shipped = ALL.filter((r) => r.page !== 'CONTRIBUTING.md');
    const missing = shipped.filter(
      (r) => r.mustShip && r.path !== '' && !CHECKOUT_ONLY.some((p) => r.path.startsWith(p)) && !packed(r.path),
    );
    expect(missing.map((r) => `${r.page}: ${r.path}`)).toEqual([]);
    for (const page of PAGES) expect(packed(page), page).toBe(true);
  });

  it('no dead link in the installed package: every relative link of every shipped Markdown file is packed', () => {
    const pages = PACKED.filter((f) => f.endsWith('.md'));
    expect(pages.length).toBeGreaterThan(15);
    expect(PACKED).not.toContain('CONTRIBUTING.md');
    const dead = pages.flatMap((page) =>
      links(page)
        .filter((target) => !packed(target))
        .map((target) => `${page}: ${target}`),
    );
    expect(dead).toEqual([]);
  });

  it('the README stays a five-minute read that links every docs page, users first', () => {
    const readme = read('README.md');
    // What it is, the checkout's two commands in two lines, then install and first use, then the commands.
    const order = ['## In a checkout: two commands', '## Install:', '## First use', '## Commands'].map((h) => readme.indexOf(h));
    expect(
      order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] ?? 0))),
      order.join(', '),
    ).toBe(true);
    expect(readme).toContain('`npm install && npm start` sets up and runs the demo');
    expect(readme).toContain('`npm test` runs\nevery test');
    expect(readme).not.toMatch(/\.ci\/run|REPAIRMON_REQUIRE_TOOLS|apt-get|section:layout/);
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    for (const page of DOCS) expect(readme, page).toContain(`](${page})`);
  });
});
