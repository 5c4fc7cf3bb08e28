/**
 * The toolkit code a generated project gets: the API layer's shipped folders, copied from
 * `api/` byte for byte when the project is rendered, so a project holds exactly what the
 * monitor and the diagnosis run on. `api/contract/server/` is the sandbox's and stays here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import type { RenderedFile } from './render.js';

export interface ShippedDir {
  /** Below our package root. */
  readonly from: string;
  /** Below the generated project's root. */
  readonly to: string;
  /** Sub-folders of `from` that are not shipped. */
  readonly exclude?: readonly string[];
}

export const SHIPPED_DIRS: readonly ShippedDir[] = [
  { from: 'api/contract', to: 'src/contract', exclude: ['server'] },
  { from: 'api/client', to: 'src/client' },
  { from: 'api/checklist', to: 'src/checklist' },
];

function walk(root: string, dir: string, exclude: readonly string[], out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    const rel = relative(root, full).split(sep).join(posix.sep);
    if (entry.isDirectory()) {
      if (!exclude.includes(rel)) walk(root, full, exclude, out);
    } else if (entry.isFile() && (entry.name.endsWith('.ts') || entry.name.endsWith('.md'))) out.push(rel);
  }
}

/** Every shipped file, in a stable order, with its path in the generated project. */
export function shippedFiles(packageRoot: string, dirs: readonly ShippedDir[] = SHIPPED_DIRS): RenderedFile[] {
  return dirs.flatMap((dir) => {
    const root = join(packageRoot, dir.from);
    const files: string[] = [];
    walk(root, root, dir.exclude ?? [], files);
    return files.sort().map((rel) => ({ path: `${dir.to}/${rel}`, contents: readFileSync(join(root, rel)) }));
  });
}
