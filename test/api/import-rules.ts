/**
 * The shared API layer's import rules, as data and one pure check, so the test that enforces
 * them can also prove it fails on a forbidden import.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** The only files under api/ that code outside api/ may import. */
export const API_ENTRIES: readonly string[] = [
  'api/contract/index.ts',
  'api/contract/readings.ts',
  'api/client/index.ts',
  'api/client/single-attempt.ts',
  'api/checklist/index.ts',
  'api/contract/server/index.ts',
  'api/openapi/index.ts',
];

/** Who may import the server entry: the sandbox, the OpenAPI builder (it describes a server), and tests that play a server. */
export const SERVER_ENTRY = 'api/contract/server/index.ts';
export const SERVER_IMPORTERS: readonly string[] = ['sandbox/', 'api/openapi/', 'test/'];

/** The OpenAPI builder: built from the contract alone (and `yaml` to write itself), never from the tools. */
export const OPENAPI_FOLDER = 'api/openapi/';
export const OPENAPI_IMPORTS: readonly string[] = ['api/contract/index.ts', 'api/contract/readings.ts', SERVER_ENTRY];
export const OPENAPI_PACKAGES = /^yaml$/;

/** What the shipped folders may import besides each other: what a generated project installs. */
export const SHIPPED_PACKAGES = /^(undici|p-retry|node:.+)$/;
export const SHIPPED_FOLDERS: readonly string[] = ['api/contract/', 'api/client/', 'api/checklist/'];

/** Where the shared layer lived before api/; spelled in parts so a grep for it finds no file. */
export const OLD_HOME = ['templates', 'app', 'src'].join('/');

export interface ImportViolation {
  readonly file: string;
  readonly specifier: string;
  readonly reason: string;
}

export function importsOf(source: string): string[] {
  const out: string[] = [];
  for (const match of source.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm)) out.push(match[1] ?? match[2] ?? match[3] ?? '');
  return out;
}

/** Repo-relative target of a relative specifier (`.js` read as the `.ts` beside it). */
function target(file: string, specifier: string): string {
  const abs = resolve(ROOT, dirname(file), specifier.replace(/\.js$/, '.ts'));
  return relative(ROOT, abs).split(sep).join(posix.sep);
}

/** The tools' settings for the spec's open points stay with the tools: `readings.ts` is not shipped. */
export const NOT_SHIPPED: readonly string[] = ['api/contract/server/', 'api/contract/readings.ts'];
const isShipped = (path: string): boolean => SHIPPED_FOLDERS.some((f) => path.startsWith(f)) && !NOT_SHIPPED.some((n) => path.startsWith(n));

/** The OpenAPI builder's own rule: its folder, the contract's two entries and `yaml`. */
function checkOpenApiImport(file: string, specifier: string): ImportViolation[] {
  const to = specifier.startsWith('.') ? target(file, specifier) : undefined;
  const allowed = to === undefined ? OPENAPI_PACKAGES.test(specifier) : to.startsWith(OPENAPI_FOLDER) || OPENAPI_IMPORTS.includes(to);
  return allowed ? [] : [{ file, specifier, reason: `the OpenAPI builder may import only its own folder, ${OPENAPI_IMPORTS.join(', ')} and yaml` }];
}

/** Every rule broken by one import of one file (repo-relative POSIX path). */
export function checkImport(file: string, specifier: string): ImportViolation[] {
  if (specifier.includes(OLD_HOME)) return [{ file, specifier, reason: 'the shared layer lives in api/, not in templates/' }];
  if (file.startsWith(OPENAPI_FOLDER)) return checkOpenApiImport(file, specifier);
  if (!specifier.startsWith('.')) {
    return isShipped(file) && !SHIPPED_PACKAGES.test(specifier) ? [{ file, specifier, reason: 'shipped code may import only undici, p-retry and node:*' }] : [];
  }
  const to = target(file, specifier);
  if (isShipped(file) && !isShipped(to)) return [{ file, specifier, reason: 'shipped code may import only the shipped folders' }];
  if (!to.startsWith('api/') || file.startsWith('api/') || file.startsWith('test/api/')) return [];
  if (!API_ENTRIES.includes(to)) return [{ file, specifier, reason: `a deep import into api/; use one of ${API_ENTRIES.join(', ')}` }];
  if (to === SERVER_ENTRY && !SERVER_IMPORTERS.some((p) => file.startsWith(p))) return [{ file, specifier, reason: 'only the sandbox (and tests) may import the server side of the contract' }];
  return [];
}

export function sourceFiles(dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(rel);
      else if (entry.isFile() && /\.(ts|hbs)$/.test(entry.name)) out.push(rel);
    }
  };
  for (const dir of dirs) walk(dir);
  return out.sort();
}

export function violations(files: readonly string[]): ImportViolation[] {
  return files.flatMap((file) => importsOf(readFileSync(join(ROOT, file), 'utf8')).flatMap((spec) => checkImport(file, spec)));
}
