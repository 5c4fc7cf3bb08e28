/**
 * The repo's import rules, read from the folder READMEs, and the pure checks that enforce them,
 * so the test can also prove each check fails on a bad import.
 *
 * A code folder (each top-level folder; each sub-folder of `api/`) is reached only through its
 * entry, `index.ts` (`generators/entry.ts`; the compiled `dist/cli/index.js` from `bin/`), plus
 * the documented second entries of `api/`. What a folder may import is one line of its README:
 *
 *     May import: api/contract, api/client/single-attempt, lib, pino, node:*.
 *
 * Each item names an entry (`lib` is `lib/index.ts`, `api/contract/readings` is that file) or a
 * package of package.json (`node:*`: Node's built-ins); `nothing` for none. The sub-folders of
 * `api/` without a README of their own have their line in `api/README.md`, after their name:
 * `` - `contract/`: May import: nothing. `` Tests may import anything.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Entries besides `<folder>/index.ts`: what api/README.md and generators/README.md document. */
export const SECOND_ENTRIES: readonly string[] = [
  'api/contract/readings.ts',
  'api/contract/server/index.ts',
  'api/client/single-attempt.ts',
  'generators/run.ts',
];

/** A folder whose entry cannot be `index.ts`: yeoman-environment takes `generators/index.*` for the generator. */
export const OTHER_ENTRIES: Readonly<Record<string, string>> = { generators: 'generators/entry.ts' };

const entryOf = (folder: string): string => OTHER_ENTRIES[folder] ?? `${folder}/index.ts`;

/** What ships into generated projects: only each other and what those projects install. */
export const SHIPPED_FOLDERS: readonly string[] = ['api/contract/', 'api/client/', 'api/checklist/'];
export const NOT_SHIPPED: readonly string[] = ['api/contract/server/', 'api/contract/readings.ts'];
export const SHIPPED_PACKAGES = /^(undici|p-retry|node:.+)$/;

/** Where the shared layer lived before api/; spelled in parts so a grep for it finds no file. */
export const OLD_HOME = ['templates', 'app', 'src'].join('/');

/** Top-level folders that hold no code of their own, or only tests and templates. */
const NOT_CODE = new Set(['node_modules', 'dist', 'docs', 'test', 'templates', 'coverage']);
const CODE_FILE = /\.(ts|js|mjs)$/;

export interface Rules {
  readonly folders: readonly string[];
  /** Folder -> what it may import (entry files and package names). */
  readonly allows: ReadonlyMap<string, ReadonlySet<string>>;
  /** Where each folder's line was read, for messages. */
  readonly readme: ReadonlyMap<string, string>;
  /** Lines that do not parse, items that name no entry or dependency, folders without a line. */
  readonly problems: readonly string[];
}

export interface Violation {
  readonly file: string;
  readonly specifier: string;
  readonly reason: string;
}

const posixPath = (path: string): string => path.split(sep).join(posix.sep);

/** The code folders: each top-level folder with code, each sub-folder of api/. */
export function codeFolders(root = ROOT): string[] {
  const dirs = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !NOT_CODE.has(e.name))
      .map((e) => (dir === '' ? e.name : `${dir}/${e.name}`));
  return dirs('')
    .flatMap((d) => (d === 'api' ? dirs('api') : [d]))
    .sort();
}

/** The folder a repo-relative file belongs to (the longest folder that contains it). */
export function folderOf(file: string, folders: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const f of folders) if (file.startsWith(`${f}/`) && (best === undefined || f.length > best.length)) best = f;
  return best;
}

export function isEntry(file: string, folders: readonly string[]): boolean {
  return SECOND_ENTRIES.includes(file) || folders.some((folder) => entryOf(folder) === file);
}

/** The items of one `May import:` line, or undefined when the line is not one. */
export function parseRuleLine(line: string): { readonly scope: string | undefined; readonly items: string[] } | undefined {
  const match = /^(?:- `([\w-]+)\/`: )?May import: (.+)\.$/.exec(line.trim());
  if (!match?.[2]) return undefined;
  const items = match[2] === 'nothing' ? [] : match[2].split(', ');
  return items.every((item) => /^(node:\*|@?[\w][\w./-]*)$/.test(item)) ? { scope: match[1], items } : undefined;
}

/** What an item stands for: an entry file, or a package name (kept as written). */
function itemTarget(item: string, root: string, folders: readonly string[]): string | undefined {
  if (item === 'node:*') return item;
  const file = existsSync(join(root, `${item}.ts`)) ? `${item}.ts` : entryOf(item);
  if (existsSync(join(root, file))) return isEntry(file, folders) ? file : undefined;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: object; devDependencies?: object };
  return item in { ...pkg.dependencies, ...pkg.devDependencies } ? item : undefined;
}

export function readRules(root = ROOT): Rules {
  const allows = new Map<string, Set<string>>();
  const readme = new Map<string, string>();
  const problems: string[] = [];
  const folders = codeFolders(root);
  // Each folder's own README, and api/README.md for the sub-folders of api/ (never the root README).
  const candidates = new Set(folders.flatMap((f) => [`${f}/README.md`, `${dirname(f)}/README.md`]));
  const readmes = [...candidates].filter((r) => r !== './README.md' && existsSync(join(root, r)));
  for (const file of readmes) {
    for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
      if (!line.includes('May import:')) continue;
      const parsed = parseRuleLine(line);
      const folder = parsed?.scope === undefined ? dirname(file) : `${dirname(file)}/${parsed.scope}`;
      if (!parsed || !folders.includes(folder)) problems.push(`${file}: "${line.trim()}" is not "May import: a, b, c." for a code folder`);
      else if (allows.has(folder)) problems.push(`${file}: a second May import line for ${folder}/`);
      else {
        const targets = new Set<string>();
        for (const item of parsed.items) {
          const found = itemTarget(item, root, folders);
          if (found === undefined) problems.push(`${file}: "${item}" is neither a folder's entry nor a dependency in package.json`);
          else targets.add(found);
        }
        allows.set(folder, targets);
        readme.set(folder, file);
      }
    }
  }
  for (const folder of folders) if (!allows.has(folder)) problems.push(`${folder}/ has no "May import:" line in its README`);
  return { folders, allows, readme, problems };
}

/** The specifiers a file imports (comments left out). */
export function importsOf(source: string): string[] {
  const out: string[] = [];
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const match of code.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm))
    out.push(match[1] ?? match[2] ?? match[3] ?? '');
  return out;
}

/** Repo-relative source file of a relative specifier: `.js` is the `.ts` beside it, `dist/x.js` is `x.ts`. */
export function target(file: string, specifier: string): string {
  const abs = resolve(ROOT, dirname(file), specifier);
  const rel = posixPath(relative(ROOT, abs)).replace(/^dist\//, '');
  return existsSync(join(ROOT, rel)) || !rel.endsWith('.js') ? rel : rel.replace(/\.js$/, '.ts');
}

/** A package specifier's name: `node:*` for a built-in, `@scope/name` or `name` otherwise. */
export function packageName(specifier: string): string {
  if (specifier.startsWith('node:')) return 'node:*';
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

const isShipped = (path: string): boolean =>
  SHIPPED_FOLDERS.some((f) => path.startsWith(f)) && !NOT_SHIPPED.some((n) => path.startsWith(n));

/** Every rule one import of one file (repo-relative POSIX path) breaks. */
export function checkImport(rules: Rules, file: string, specifier: string): Violation[] {
  const broken = (reason: string): Violation[] => [{ file, specifier, reason }];
  if (specifier.includes(OLD_HOME)) return broken('the shared layer lives in api/, not in templates/');
  const from = folderOf(file, rules.folders);
  if (from === undefined) return [];
  const allowed = rules.allows.get(from) ?? new Set<string>();
  const why = `${rules.readme.get(from) ?? `${from}/README.md`} does not list it`;
  if (!specifier.startsWith('.')) {
    if (isShipped(file) && !SHIPPED_PACKAGES.test(specifier)) return broken('shipped code may import only undici, p-retry and node:*');
    return allowed.has(packageName(specifier)) ? [] : broken(`package ${packageName(specifier)}: ${why}`);
  }
  const to = target(file, specifier);
  if (isShipped(file) && !isShipped(to)) return broken('shipped code may import only the shipped folders');
  const into = folderOf(to, rules.folders);
  if (into === undefined || into === from) return [];
  if (!isEntry(to, rules.folders)) return broken(`a deep import into ${into}/: import its entry`);
  return allowed.has(to) ? [] : broken(`${to}: ${why}`);
}

export function sourceFiles(dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(rel);
      else if (entry.isFile() && (CODE_FILE.test(entry.name) || entry.name.endsWith('.hbs'))) out.push(rel);
    }
  };
  for (const dir of dirs) walk(dir);
  return out.sort();
}

/** Items of a folder's line that no file of the folder imports: a line must say what is true. */
export function unusedItems(rules: Rules, files: readonly string[]): string[] {
  const used = new Set<string>();
  for (const file of files) {
    const from = folderOf(file, rules.folders);
    for (const spec of importsOf(readFileSync(join(ROOT, file), 'utf8')))
      used.add(`${from}: ${spec.startsWith('.') ? target(file, spec) : packageName(spec)}`);
  }
  return [...rules.allows].flatMap(([folder, items]) =>
    [...items]
      .filter((item) => !used.has(`${folder}: ${item}`))
      .map((item) => `${rules.readme.get(folder)}: ${folder}/ lists ${item} but imports no such thing`),
  );
}

export function violations(rules: Rules, files: readonly string[]): Violation[] {
  return files.flatMap((file) => importsOf(readFileSync(join(ROOT, file), 'utf8')).flatMap((spec) => checkImport(rules, file, spec)));
}

/** Imports from one test folder into another's files: a helper two folders share lives in test/helpers/. */
export function sharedTestHelpers(edges: readonly (readonly [string, string])[]): string[] {
  const folder = (path: string): string => path.split('/').slice(0, 2).join('/');
  return edges
    .filter(([from, to]) => from.startsWith('test/') && to.startsWith('test/') && existsSync(join(ROOT, to)))
    .filter(([from, to]) => folder(from) !== folder(to) && !to.startsWith('test/helpers/') && folder(to) !== to)
    .map(([from, to]) => `${from} -> ${to}: move it to test/helpers/`);
}

/** Every `[file, target]` of a relative import among `files`. */
export function importEdges(files: readonly string[]): [string, string][] {
  return files.flatMap((file) =>
    importsOf(readFileSync(join(ROOT, file), 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s): [string, string] => [file, target(file, s)]),
  );
}

/** The sub-folders of one folder that each side of an import lies in, when they differ. */
function folderEdge([from, to]: readonly [string, string]): [string, string] | undefined {
  const a = from.split('/');
  const b = to.split('/');
  let i = 0;
  while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i += 1;
  if (i >= a.length - 1 || i >= b.length - 1) return undefined; // one side is a file of the shared folder itself
  return [a.slice(0, i + 1).join('/'), b.slice(0, i + 1).join('/')];
}

/**
 * Import cycles between sibling folders (`monitor/config` -> `monitor/probe` -> `monitor/config`,
 * or `lib` -> `monitor` -> `lib`), each as the folders in order with one import per step.
 */
export function folderCycles(edges: readonly (readonly [string, string])[]): string[] {
  const graph = new Map<string, Map<string, string>>();
  for (const edge of edges) {
    const pair = folderEdge(edge);
    if (!pair) continue;
    const next = graph.get(pair[0]) ?? new Map<string, string>();
    if (!next.has(pair[1])) next.set(pair[1], `${edge[0]} -> ${edge[1]}`);
    graph.set(pair[0], next);
  }
  const found: string[] = [];
  // Each cycle once, from its smallest folder: walk only through folders after the start.
  const walk = (path: readonly string[]): void => {
    for (const next of graph.get(path.at(-1)!)?.keys() ?? []) {
      if (next === path[0])
        found.push(
          [...path, next]
            .slice(1)
            .map((to, i) => `${path[i]} -> ${to} (${graph.get(path[i]!)?.get(to)})`)
            .join('; '),
        );
      else if (next > path[0]! && !path.includes(next)) walk([...path, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) walk([start]);
  return found;
}
