/**
 * Whether a run may put its files where they go, checked before the first write. Each path the
 * plan writes or removes is walked from the project root one component at a time: a symlink
 * that resolves outside the project (or nowhere) would carry the write out of it, and a file
 * where a folder goes (or a folder where a file goes) would fail the run half-way. Reads only.
 * A link that stays inside the project is followed, as an editor would.
 */
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

export type PathProblem =
  | { readonly kind: 'link_outside'; readonly path: string; readonly to: string }
  | { readonly kind: 'link_broken'; readonly path: string; readonly to: string }
  | { readonly kind: 'directory_for_file'; readonly path: string }
  | { readonly kind: 'file_for_directory'; readonly path: string };

type Seen = 'ok' | 'missing' | 'problem';

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root + sep);
}

/** One component: undefined when fine; `missing` ends the walk (nothing below exists). */
function checkComponent(
  realRoot: string,
  full: string,
  rel: string,
  last: boolean,
): PathProblem | 'missing' | undefined {
  let isLink: boolean;
  try {
    isLink = lstatSync(full).isSymbolicLink();
  } catch {
    // Missing, or unreadable: the write itself will say so, and the commit rolls back.
    return 'missing';
  }
  if (isLink) {
    let resolved: string;
    try {
      resolved = realpathSync(full);
    } catch {
      return { kind: 'link_broken', path: rel, to: readlinkSync(full) };
    }
    if (!inside(realRoot, resolved)) return { kind: 'link_outside', path: rel, to: resolved };
  }
  const isDirectory = statSync(full).isDirectory();
  if (!last && !isDirectory) return { kind: 'file_for_directory', path: rel };
  if (last && isDirectory) return { kind: 'directory_for_file', path: rel };
  return undefined;
}

/** Every problem once, by the shortest path that has it (`src`, not each file below it). */
export function pathsInTheWay(root: string, paths: Iterable<string>): PathProblem[] {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return []; // a new directory: nothing in it yet
  }
  const seen = new Map<string, Seen>();
  const problems: PathProblem[] = [];
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      const rel = parts.slice(0, i + 1).join('/');
      const last = i === parts.length - 1;
      const key = `${rel}${last ? '' : '/'}`;
      let state = seen.get(key);
      if (state === undefined) {
        const result = checkComponent(realRoot, join(root, rel), rel, last);
        state = result === undefined ? 'ok' : result === 'missing' ? 'missing' : 'problem';
        if (typeof result === 'object') problems.push(result);
        seen.set(key, state);
      }
      if (state !== 'ok') break;
    }
  }
  return problems;
}

function problemLine(problem: PathProblem): string {
  switch (problem.kind) {
    case 'link_outside':
      return `${problem.path}: a symbolic link to ${problem.to}, outside the project (the generator never writes through one)`;
    case 'link_broken':
      return `${problem.path}: a symbolic link that leads nowhere (to ${problem.to}); writing through it would create its target`;
    case 'directory_for_file':
      return `${problem.path}: a directory where the generator writes a file`;
    case 'file_for_directory':
      return `${problem.path}: a file where the generator needs a folder`;
  }
}

export function pathProblemsMessage(problems: readonly PathProblem[]): string {
  return [
    'These paths are in the way; nothing was written:',
    ...problems.map((p) => `  ${problemLine(p)}`),
    'Move or replace them (a link by a real folder or file inside the project), then run again.',
  ].join('\n');
}
