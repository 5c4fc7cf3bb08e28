/** The upgrade plan and the package.json merge as pure functions: every rule on small inputs. */
import { describe, expect, it } from 'vitest';
import { LEGACY_TOOLKIT_DIR, TOOLKIT_DIR, chooseLayout, relocateImports, strayRecordPaths } from '../../generators/app/layout.js';
import { compareRanges, mergePackageJson } from '../../generators/app/package-merge.js';
import { planSummary, refusalMessage } from '../../generators/app/summary.js';
import { contentHash, parseToolkitRecord, withHeader, withoutHeader } from '../../generators/app/toolkit-record.js';
import {
  type NextFile,
  type PlanInput,
  type UpgradePlan,
  changingActions,
  planChanges,
  planUpgrade,
} from '../../generators/app/upgrade-plan.js';

const b = (text: string): Buffer => Buffer.from(text, 'utf8');
const T = (name: string) => `${TOOLKIT_DIR}/client/${name}`;
/** A toolkit file as written: the one-line notice, then the code. */
const v1 = (text: string, path = T('a.ts')) => withHeader(path, b(text));
const v2 = v1;
/** The header toolkit files carried up to 0.1.0, naming the version. */
const versioned = (text: string, version = '0.1.0') =>
  b(`// generator-repair-service ${version} toolkit code; generated: do not edit, \`repairmon upgrade\` replaces it\n${text}`);

function input(over: Partial<PlanInput> & { files?: Record<string, string | Buffer> }): PlanInput {
  const current = new Map(Object.entries(over.files ?? {}).map(([p, c]) => [p, typeof c === 'string' ? b(c) : c]));
  return {
    recorded: undefined,
    version: '2.0.0',
    dir: TOOLKIT_DIR,
    next: [],
    current,
    exists: (p) => current.has(p),
    force: false,
    ...over,
  };
}
const toolkit = (path: string, contents: Buffer): NextFile => ({ path, contents, owner: 'toolkit' });
const ready = (plan: UpgradePlan) => {
  if (plan.kind !== 'ready') throw new Error(`refused: ${JSON.stringify(plan)}`);
  return plan;
};
const kinds = (plan: UpgradePlan) => Object.fromEntries(ready(plan).actions.map((a) => [a.path, a.kind]));

describe('planUpgrade', () => {
  const recorded = {
    version: '1.0.0',
    dir: TOOLKIT_DIR,
    files: { [T('a.ts')]: contentHash(v1('a')), [T('gone.ts')]: contentHash(v1('gone', T('gone.ts'))) },
  };

  it('replaces unedited toolkit files, adds new ones, removes dropped ones, records the new hashes', () => {
    const plan = ready(
      planUpgrade(
        input({
          recorded,
          next: [toolkit(T('a.ts'), v2('a2')), toolkit(T('new.ts'), v2('n', T('new.ts')))],
          files: { [T('a.ts')]: v1('a'), [T('gone.ts')]: v1('gone', T('gone.ts')) },
        }),
      ),
    );
    expect(kinds(plan)).toEqual({ [T('a.ts')]: 'update', [T('new.ts')]: 'add', [T('gone.ts')]: 'remove' });
    expect(plan.record).toEqual({
      version: '2.0.0',
      dir: TOOLKIT_DIR,
      files: { [T('a.ts')]: contentHash(v2('a2')), [T('new.ts')]: contentHash(v2('n', T('new.ts'))) },
      integratorFiles: {},
    });
  });

  it('refuses, listing them, when toolkit files were edited (replaced or removed); force backs each up as .orig', () => {
    const files = { [T('a.ts')]: b('mine'), [T('gone.ts')]: b('mine too'), [`${T('a.ts')}.orig`]: b('older backup') };
    const refused = planUpgrade(input({ recorded, next: [toolkit(T('a.ts'), v2('a2'))], files }));
    expect(refused).toEqual({
      kind: 'refused',
      packageJson: undefined,
      stray: [],
      edited: [
        { path: T('a.ts'), why: 'edited', removal: false },
        { path: T('gone.ts'), why: 'edited', removal: true },
      ],
    });
    const forced = ready(planUpgrade(input({ recorded, next: [toolkit(T('a.ts'), v2('a2'))], files, force: true })));
    const backups = forced.actions.flatMap((a) => ('backup' in a && a.backup ? [[a.backup.path, a.backup.contents.toString()]] : []));
    expect(backups).toEqual([
      [`${T('a.ts')}.orig.1`, 'mine'],
      [`${T('gone.ts')}.orig`, 'mine too'],
    ]);
  });

  it('a toolkit file the integrator deleted comes back; one identical to ours is unchanged', () => {
    const plan = planUpgrade(
      input({ recorded, next: [toolkit(T('a.ts'), v2('a2')), toolkit(T('same.ts'), v2('s'))], files: { [T('same.ts')]: v2('s') } }),
    );
    expect(kinds(plan)).toMatchObject({ [T('a.ts')]: 'add', [T('same.ts')]: 'unchanged' });
    expect(ready(plan).actions.find((a) => a.path === T('a.ts'))).toMatchObject({ restored: true });
  });

  it('without a record: a file equal to ours under another header is replaced, any other difference is "unrecorded"', () => {
    const plan = planUpgrade(
      input({
        next: [toolkit(T('a.ts'), v2('same')), toolkit(T('b.ts'), v2('new b'))],
        files: { [T('a.ts')]: b('same'), [T('b.ts')]: b('old b') },
      }),
    );
    expect(plan).toMatchObject({ kind: 'refused', edited: [{ path: T('b.ts'), why: 'unrecorded' }] });
    expect(kinds(planUpgrade(input({ next: [toolkit(T('a.ts'), v2('same'))], files: { [T('a.ts')]: b('same') } })))).toEqual({
      [T('a.ts')]: 'update',
    });
  });

  it("the integrator's files: added when missing, otherwise kept (or unchanged), never written", () => {
    const next: NextFile[] = ['src/index.ts', 'README.md', 'src/new.ts'].map((path) => ({
      path,
      contents: b('ours'),
      owner: 'integrator',
    }));
    const plan = ready(planUpgrade(input({ next, files: { 'src/index.ts': 'theirs', 'README.md': 'ours' } })));
    expect(kinds(plan)).toEqual({ 'src/index.ts': 'kept', 'README.md': 'unchanged', 'src/new.ts': 'add' });
    expect(changingActions(plan).map((a) => a.path)).toEqual(['src/new.ts']);
  });

  it('package.json: merged; an unreadable one refuses the run', () => {
    const ours: NextFile = {
      path: 'package.json',
      owner: 'package_json',
      contents: b('{"dependencies":{"undici":"^7.16.0"},"scripts":{"check":"x"},"overrides":{"vite":"~8.3.8","a":"1.0.0"}}'),
    };
    const plan = ready(
      planUpgrade(input({ next: [ours], files: { 'package.json': '{\n  "name": "x",\n  "overrides": { "a": "2.0.0" }\n}\n' } })),
    );
    expect(plan.actions[0]).toMatchObject({
      kind: 'update',
      changes: [
        { kind: 'dependency_added', name: 'undici' },
        { kind: 'script_added', name: 'check' },
        // An override we pin is added; theirs for the same package is never changed.
        { kind: 'override_added', name: 'vite', range: '~8.3.8' },
      ],
    });
    expect(plan.actions[0]).toHaveProperty('changes.length', 3);
    expect(planUpgrade(input({ next: [ours], files: { 'package.json': '{ nope' } }))).toMatchObject({
      kind: 'refused',
      packageJson: expect.stringContaining('not a JSON object'),
    });
  });

  it('a version-only release (no toolkit code changed) changes no toolkit file and no unedited file of theirs: only the record', () => {
    const readme: NextFile = { path: 'README.md', contents: b('# shop\n'), owner: 'integrator' };
    const files = { [T('a.ts')]: v1('a'), 'README.md': b('# shop\n') };
    const plan = ready(
      planUpgrade(
        input({
          recorded: { ...recorded, files: { [T('a.ts')]: contentHash(v1('a')) } },
          next: [toolkit(T('a.ts'), v1('a')), readme],
          files,
        }),
      ),
    );
    expect(kinds(plan)).toEqual({ [T('a.ts')]: 'unchanged', 'README.md': 'unchanged' });
    expect(planChanges(plan)).toEqual([]);
    expect(plan.record).toEqual({
      version: '2.0.0',
      dir: TOOLKIT_DIR,
      files: { [T('a.ts')]: contentHash(v1('a')) },
      integratorFiles: { 'README.md': contentHash(b('# shop\n')) },
    });
    expect(planSummary(plan)).toBe(
      `Toolkit 1.0.0 -> 2.0.0 (toolkit code in ${TOOLKIT_DIR}/):\n  0 added, 0 updated, 0 removed, 2 unchanged`,
    );
  });

  it('files written with the old versioned header: replaced once (recorded, or the same code), then left alone', () => {
    const old = { version: '0.1.0', dir: TOOLKIT_DIR, files: { [T('a.ts')]: contentHash(versioned('a')) } };
    const next = [toolkit(T('a.ts'), v1('a')), toolkit(T('b.ts'), v1('b', T('b.ts')))];
    const plan = ready(planUpgrade(input({ recorded: old, next, files: { [T('a.ts')]: versioned('a'), [T('b.ts')]: versioned('b') } })));
    expect(kinds(plan)).toEqual({ [T('a.ts')]: 'update', [T('b.ts')]: 'update' });
    expect(withoutHeader(versioned('a'))).toEqual(b('a'));
  });

  it("the integrator's files that differ from this version's render are kept and say why: edited, unedited (the template changed), or unknown", () => {
    const next: NextFile[] = ['README.md', 'src/index.ts', 'src/old.ts'].map((path) => ({
      path,
      contents: b(`new ${path}`),
      owner: 'integrator',
    }));
    const integratorFiles = { 'README.md': contentHash(b('as generated')), 'src/index.ts': contentHash(b('as generated')) };
    const files = { 'README.md': 'as generated', 'src/index.ts': 'edited', 'src/old.ts': 'whatever' };
    const plan = ready(planUpgrade(input({ recorded: { ...recorded, files: {}, integratorFiles }, next, files })));
    expect(plan.actions.map((a) => [a.path, a.kind, 'why' in a ? a.why : undefined])).toEqual([
      ['README.md', 'kept', 'template_changed'],
      ['src/index.ts', 'kept', 'edited'],
      ['src/old.ts', 'kept', 'unrecorded'],
    ]);
    // What was generated stays recorded, so the next run still tells them apart; nothing is written.
    expect(plan.record.integratorFiles).toEqual(integratorFiles);
    expect(planChanges(plan)).toEqual([]);
    const text = planSummary(plan);
    expect(text).toContain('0 unchanged, 1 kept because edited, 1 kept unedited, 1 kept (no record of what was generated)');
    expect(text).toContain(
      '  kept       README.md (not edited, but this version renders it differently; yours, so left as it is: delete it and run again to take the new one)',
    );
    expect(text).toContain('  kept       src/index.ts (edited since it was generated)');
    expect(text).not.toMatch(/kept as yours/);
  });

  it('a record naming anything outside the toolkit folder is refused by name, --force or not, before reading a file', () => {
    const files = {
      'package.json': contentHash(b('{}')),
      '.env': contentHash(b('K=1')),
      'src/index.ts': 'sha256-x',
      [`${TOOLKIT_DIR}/../../README.md`]: 'sha256-x',
      '/etc/passwd': 'sha256-x',
      [T('a.ts')]: contentHash(v1('a')),
    };
    for (const force of [false, true]) {
      const plan = planUpgrade(
        input({
          recorded: { ...recorded, files },
          next: [toolkit(T('a.ts'), v2('a2'))],
          files: { '.env': 'K=1', 'package.json': '{}' },
          force,
        }),
      );
      expect(plan).toEqual({
        kind: 'refused',
        edited: [],
        packageJson: undefined,
        stray: ['package.json', '.env', 'src/index.ts', `${TOOLKIT_DIR}/../../README.md`, '/etc/passwd'],
      });
      if (plan.kind !== 'refused') throw new Error('expected a refusal');
      expect(refusalMessage(plan, 'repairmon upgrade')).toMatch(
        /^\.yo-rc\.json records these as toolkit files, but they are outside the toolkit folder[^\n]*\n {2}package\.json\n {2}\.env\n[\s\S]*--force does not change that/,
      );
    }
    expect(strayRecordPaths({ version: '1', dir: 'lib', files: { 'lib/client/a.ts': 'h' } })).toEqual([
      'lib/ (recorded as the toolkit folder)',
    ]);
    expect(strayRecordPaths({ version: '1', dir: LEGACY_TOOLKIT_DIR, files: { 'src/client/a.ts': 'h', 'src/index.ts': 'h' } })).toEqual([
      'src/index.ts',
    ]);
    // The one toolkit file outside the folder: the OpenAPI document at the project root, that path exactly.
    for (const dir of [TOOLKIT_DIR, LEGACY_TOOLKIT_DIR]) {
      const files = {
        'openapi.yaml': 'h',
        './openapi.yaml': 'h',
        'src/openapi.yaml': 'h',
        [`${dir}/openapi.yaml`]: 'h',
        'openapi.yml': 'h',
        'docs/openapi.yaml': 'h',
      };
      expect(strayRecordPaths({ version: '1', dir, files }), dir).toEqual(Object.keys(files).filter((path) => path !== 'openapi.yaml'));
    }
    // Such a folder is not followed: the plan renders into the folder the layout knows.
    expect(chooseLayout({ version: '1', dir: '.', files: {} }, () => false)).toEqual({ kind: 'new', dir: TOOLKIT_DIR });
  });

  it('says what it did and why it refused', () => {
    const plan = ready(
      planUpgrade(input({ recorded, next: [toolkit(T('a.ts'), v2('a2'))], files: { [T('a.ts')]: b('mine') }, force: true })),
    );
    const text = planSummary(plan);
    expect(text).toContain(`Toolkit 1.0.0 -> 2.0.0 (toolkit code in ${TOOLKIT_DIR}/):`);
    expect(text).toContain(`updated    ${T('a.ts')} (your edited version kept as ${T('a.ts')}.orig)`);
    // Each .orig left is named, with how to resolve it.
    expect(text).toContain(
      `Your edited versions, kept beside the toolkit's (1): move what you still need into your own code, outside ${TOOLKIT_DIR}/, then delete each:\n  ${T('a.ts')}.orig  (compare: diff ${T('a.ts')}.orig ${T('a.ts')})`,
    );
    const refused = planUpgrade(input({ recorded, next: [toolkit(T('a.ts'), v2('a2'))], files: { [T('a.ts')]: b('mine') } }));
    if (refused.kind !== 'refused') throw new Error('expected a refusal');
    expect(refusalMessage(refused, 'repairmon upgrade')).toContain(`  ${T('a.ts')}  (edited: differs from the recorded hash)`);
  });
});

describe('mergePackageJson', () => {
  const ours = JSON.stringify({
    dependencies: { undici: '^7.16.0', 'p-retry': '^7.1.0' },
    devDependencies: { typescript: '~5.9.3' },
    scripts: { test: 'vitest run', check: 'node dist/check.js' },
    engines: { node: '>=20.18.1' },
  });

  it('adds and raises ours, never removes, lowers or rewrites theirs, keeps their layout', () => {
    const theirs = `{\n    "name": "shop",\n    "scripts": { "test": "jest", "lint": "eslint ." },\n    "dependencies": { "left-pad": "^1.3.0", "undici": "^7.0.0" },\n    "devDependencies": { "typescript": "^6.0.0" },\n    "engines": { "node": ">=22" }\n}`;
    const merged = mergePackageJson(theirs, ours);
    if (!merged.ok) throw new Error(merged.reason);
    const pkg = JSON.parse(merged.text) as Record<string, Record<string, string>>;
    expect(pkg['dependencies']).toEqual({ 'left-pad': '^1.3.0', 'p-retry': '^7.1.0', undici: '^7.16.0' });
    expect(pkg['devDependencies']).toEqual({ typescript: '^6.0.0' });
    expect(pkg['scripts']).toEqual({ test: 'jest', lint: 'eslint .', check: 'node dist/check.js' });
    expect(pkg['engines']).toEqual({ node: '>=22' });
    expect(merged.text.split('\n')[1]).toBe('    "name": "shop",');
    expect(merged.text.endsWith('}')).toBe(true);
  });

  it('a dependency they moved to another section stays there; ranges it cannot read are theirs', () => {
    const theirs = JSON.stringify({ dependencies: { typescript: '~5.0.0', undici: 'github:nodejs/undici', 'p-retry': 'latest' } });
    const merged = mergePackageJson(theirs, ours);
    if (!merged.ok) throw new Error(merged.reason);
    const pkg = JSON.parse(merged.text) as Record<string, Record<string, string> | undefined>;
    expect(pkg['dependencies']).toEqual({ typescript: '~5.9.3', undici: 'github:nodejs/undici', 'p-retry': 'latest' });
    expect(pkg['devDependencies']).toBeUndefined();
    expect(merged.changes).toContainEqual({
      kind: 'dependency_kept',
      section: 'dependencies',
      name: 'undici',
      theirs: 'github:nodejs/undici',
      ours: '^7.16.0',
      why: 'unreadable_range',
    });
  });

  it('nothing to do: the same bytes back', () => {
    const theirs = `${JSON.stringify(JSON.parse(ours), null, 2)}\n`;
    expect(mergePackageJson(theirs, ours)).toEqual({ ok: true, text: theirs, changes: [] });
  });
});

describe('compareRanges', () => {
  it.each([
    ['^7.16.0', '^7.1.0', 'newer'],
    ['^7.1.0', '^7.16.0', 'older'],
    ['^7.16.0', '~7.16.0', 'same'],
    ['^7', '7.0.0', 'same'],
    ['>=20.18.1', '>=20', 'newer'],
    ['1.2.3', '1.2.3-beta.1', 'newer'],
    ['^7.16.0', '*', 'unknown'],
    ['^7.16.0', '^6 || ^7', 'unknown'],
    ['^7.16.0', 'file:../undici', 'unknown'],
  ] as const)('%s vs %s: %s', (ours, theirs, order) => expect(compareRanges(ours, theirs)).toBe(order));
});

describe('layout, header and record', () => {
  it('recorded dir wins; else src/<part>/index.ts means a project from before the record', () => {
    expect(chooseLayout({ version: '1', dir: TOOLKIT_DIR, files: {} }, () => true)).toEqual({ kind: 'recorded', dir: TOOLKIT_DIR });
    expect(chooseLayout({ version: '1', dir: LEGACY_TOOLKIT_DIR, files: {} }, () => false)).toEqual({
      kind: 'recorded',
      dir: LEGACY_TOOLKIT_DIR,
    });
    expect(chooseLayout(undefined, (p) => p === 'src/client/index.ts')).toEqual({ kind: 'legacy', dir: LEGACY_TOOLKIT_DIR });
    expect(chooseLayout(undefined, () => false)).toEqual({ kind: 'new', dir: TOOLKIT_DIR });
  });

  it('relocates only import specifiers into the toolkit folder', () => {
    const text =
      "import { a } from './repair-service/client/index.js';\nimport { b } from '../src/repair-service/contract/index.js';\n// see src/repair-service/\n";
    expect(relocateImports(text, 'src')).toBe(
      "import { a } from './client/index.js';\nimport { b } from '../src/contract/index.js';\n// see src/repair-service/\n",
    );
    expect(relocateImports(text, TOOLKIT_DIR)).toBe(text);
  });

  it('the header goes on and comes off, and names no version; hashes name their algorithm', () => {
    const headed = withHeader('x.md', b('# Title\n'));
    expect(headed.toString()).toBe('<!-- generated: do not edit, `repairmon upgrade` replaces it -->\n# Title\n');
    expect(withHeader('x.ts', b('x')).toString()).toBe('// generated: do not edit, `repairmon upgrade` replaces it\nx');
    expect(withHeader('openapi.yaml', b('openapi: 3.1.0\n')).toString()).toBe(
      '# generated: do not edit, `repairmon upgrade` replaces it\nopenapi: 3.1.0\n',
    );
    expect(withoutHeader(headed).toString()).toBe('# Title\n');
    expect(withoutHeader(b('// my own first line\nx'))).toEqual(b('// my own first line\nx'));
    expect(contentHash(b(''))).toBe('sha256-e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('a malformed record reads as no record; a path-escaping one is read, and refused by the plan (above)', () => {
    expect(parseToolkitRecord({ toolkit: { version: '1', dir: TOOLKIT_DIR, files: { 'src/a.ts': 'sha256-x' } } })).toEqual({
      version: '1',
      dir: TOOLKIT_DIR,
      files: { 'src/a.ts': 'sha256-x' },
    });
    for (const bad of [
      {},
      { toolkit: 'x' },
      { toolkit: { version: 1, dir: 'src', files: {} } },
      { toolkit: { version: '1', dir: 'src', files: { a: 1 } } },
    ]) {
      expect(parseToolkitRecord(bad), JSON.stringify(bad)).toBeUndefined();
    }
    for (const escaping of [
      { version: '1', dir: '../x', files: {} },
      { version: '1', dir: 'src', files: { '/etc/passwd': 'h' } },
    ]) {
      expect(strayRecordPaths(parseToolkitRecord({ toolkit: escaping })), JSON.stringify(escaping)).not.toEqual([]);
    }
  });
});
