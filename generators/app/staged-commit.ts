/**
 * Putting a run's files in place all or nothing. Every file is first written into a staging
 * folder on the same filesystem (a `.repair-service-staging-*` folder next to the files), so
 * a failure while rendering bytes to disk touches nothing of the project. Then:
 *
 * - a new project: the whole staged tree is renamed into place in one step;
 * - an existing one: each file is renamed into place, the version it replaces first moved
 *   aside into the staging folder; if any step fails, every step already taken is undone in
 *   reverse, so the project is left as it was.
 *
 * The changes are applied in the order given; the caller puts `.yo-rc.json` last, so it only
 * ever describes a complete project. Before the first rename, `journal.json` in the staging
 * folder lists the changes, so a run killed part-way (kill -9, a power cut) is rolled back by
 * the next one (interrupted-commit.ts); the folder's name carries the process id, so a run
 * still going is told apart. The file system calls go through `commitIo`, one object, so a
 * test can fail the Nth call and watch the rollback.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, posix, relative, sep } from 'node:path';

/** A project-relative POSIX path and its new contents; `undefined` removes the file. */
export interface FileChange {
  readonly path: string;
  readonly contents: Buffer | undefined;
}

export interface CommitIo {
  mkdtemp(prefix: string): string;
  mkdir(path: string): void;
  writeFile(path: string, contents: Buffer, mode: number | undefined): void;
  rename(from: string, to: string): void;
  remove(path: string): void;
  rmdir(path: string): void;
}

export const commitIo: CommitIo = {
  mkdtemp: (prefix) => mkdtempSync(prefix),
  mkdir: (path) => mkdirSync(path),
  writeFile: (path, contents, mode) =>
    writeFileSync(path, contents, mode === undefined ? {} : { mode }),
  rename: (from, to) => renameSync(from, to),
  remove: (path) => rmSync(path, { recursive: true, force: true }),
  rmdir: (path) => rmdirSync(path),
};

export const STAGING_PREFIX = '.repair-service-staging-';
/** In the staging folder: `{ changes: [{ path, contents }] }`, `new/<index>`'s path and whether it has contents. */
export const JOURNAL = 'journal.json';

/** What the journal says about each change. */
export interface JournalEntry {
  readonly path: string;
  readonly contents: boolean;
}

/** A failed commit: which file, why, and whether the project is as it was. */
export class CommitError extends Error {
  override readonly name = 'CommitError';
  constructor(
    /** The change being made when it failed; '' before the first or after the last. */
    readonly path: string,
    /** Whether the project is as it was before the run. */
    readonly restored: boolean,
    message: string,
    cause: unknown,
  ) {
    super(message, { cause });
  }
}

const why = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function lexists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The mode of the file being replaced, so an executable script stays executable. */
function modeOf(path: string): number | undefined {
  try {
    const stat = lstatSync(path);
    return stat.isFile() ? stat.mode & 0o7777 : undefined;
  } catch {
    return undefined;
  }
}

/** Where a change lands: through a link inside the project (write-safety.ts refused the others). */
export function destination(root: string, path: string): string {
  const full = join(root, path);
  try {
    return lstatSync(full).isSymbolicLink() ? realpathSync(full) : full;
  } catch {
    return full;
  }
}

export function commitChanges(
  root: string,
  changes: readonly FileChange[],
  io: CommitIo = commitIo,
): void {
  if (existsSync(root)) commitInto(root, changes, io);
  else commitNew(root, changes, io);
}

/** mkdir -p of `base/dir` inside the staging tree, which is ours to fill. */
function stagedDir(io: CommitIo, base: string, dir: string): string {
  let at = base;
  for (const part of dir.split('/').filter((p) => p !== '' && p !== '.')) {
    at = join(at, part);
    if (!existsSync(at)) io.mkdir(at);
  }
  return at;
}

/** A staging folder, or the error that nothing was written because there is none. */
function makeStaging(io: CommitIo, prefix: string, nothingMessage: string): string {
  try {
    return io.mkdtemp(prefix);
  } catch (error) {
    throw new CommitError(
      '',
      true,
      `creating a staging folder (${prefix}*) failed (${why(error)}); ${nothingMessage}`,
      error,
    );
  }
}

/** The project does not exist yet: build it beside where it goes, then one rename. */
function commitNew(root: string, changes: readonly FileChange[], io: CommitIo): void {
  // The highest missing folder on the way to root (for `repairmon new a/b` with no `a`).
  let top = root;
  while (!existsSync(dirname(top)) && dirname(top) !== top) top = dirname(top);
  const nothing = `nothing was written, ${root} was not created.`;
  const staging = makeStaging(io, join(dirname(top), `${STAGING_PREFIX}${process.pid}-`), nothing);
  const tree = join(staging, basename(top));
  let current = '';
  try {
    io.mkdir(tree);
    const base = stagedDir(io, tree, relative(top, root).split(sep).join('/'));
    for (const change of changes) {
      current = change.path;
      if (change.contents !== undefined)
        io.writeFile(
          join(stagedDir(io, base, posix.dirname(change.path)), basename(change.path)),
          change.contents,
          undefined,
        );
    }
    current = '';
    io.rename(tree, top);
  } catch (error) {
    io.remove(staging);
    const what = current === '' ? `moving the new project into ${top}` : `writing ${current}`;
    throw new CommitError(current, true, `${what} failed (${why(error)}); ${nothing}`, error);
  }
  io.remove(staging);
}

type Undo = () => void;

/** An existing folder: stage every file, then move each into place, undoing all on a failure. */
function commitInto(root: string, changes: readonly FileChange[], io: CommitIo): void {
  const staging = makeStaging(
    io,
    join(root, `${STAGING_PREFIX}${process.pid}-`),
    'nothing was written, the project was left as it was.',
  );
  const fresh = join(staging, 'new');
  const aside = join(staging, 'old');
  const undo: Undo[] = [];
  let current = '';
  try {
    io.mkdir(fresh);
    io.mkdir(aside);
    changes.forEach((change, i) => {
      current = change.path;
      if (change.contents !== undefined)
        io.writeFile(
          join(fresh, String(i)),
          change.contents,
          modeOf(destination(root, change.path)),
        );
    });
    current = '';
    writeJournal(staging, changes, io);
    changes.forEach((change, i) => {
      current = change.path;
      placeOne(
        root,
        change,
        join(fresh, String(i)),
        join(stagedDir(io, aside, posix.dirname(change.path)), basename(change.path)),
        io,
        undo,
      );
    });
  } catch (error) {
    const failed = rollBack(undo);
    if (failed === undefined) io.remove(staging);
    throw commitFailure(current, error, failed, aside);
  }
  io.remove(staging);
}

/** Written whole, then renamed: a journal that exists is complete, and no file was moved before it. */
function writeJournal(staging: string, changes: readonly FileChange[], io: CommitIo): void {
  const entries: JournalEntry[] = changes.map((c) => ({
    path: c.path,
    contents: c.contents !== undefined,
  }));
  io.writeFile(
    join(staging, `${JOURNAL}.tmp`),
    Buffer.from(JSON.stringify({ changes: entries })),
    undefined,
  );
  io.rename(join(staging, `${JOURNAL}.tmp`), join(staging, JOURNAL));
}

function placeOne(
  root: string,
  change: FileChange,
  staged: string,
  aside: string,
  io: CommitIo,
  undo: Undo[],
): void {
  const dest = destination(root, change.path);
  // Folders the change needs, created top-down and removed bottom-up on a rollback.
  const missing: string[] = [];
  for (let dir = dirname(dest); !existsSync(dir); dir = dirname(dir)) missing.unshift(dir);
  for (const dir of missing) {
    io.mkdir(dir);
    undo.push(() => io.rmdir(dir));
  }
  if (lexists(dest)) {
    io.rename(dest, aside);
    undo.push(() => io.rename(aside, dest));
  }
  if (change.contents !== undefined) {
    io.rename(staged, dest);
    undo.push(() => io.remove(dest));
  }
}

/** Undoes in reverse; the first undo that fails (the rest are still tried) or undefined. */
function rollBack(undo: readonly Undo[]): unknown {
  let failed: unknown;
  for (const step of [...undo].reverse()) {
    try {
      step();
    } catch (error) {
      failed ??= error;
    }
  }
  return failed;
}

function commitFailure(
  path: string,
  error: unknown,
  undoFailed: unknown,
  aside: string,
): CommitError {
  const what = path === '' ? 'preparing the staging folder' : `writing ${path}`;
  if (undoFailed === undefined)
    return new CommitError(
      path,
      true,
      `${what} failed (${why(error)}); nothing was written, the project was left as it was.`,
      error,
    );
  return new CommitError(
    path,
    false,
    `${what} failed (${why(error)}), and putting the project back failed too (${why(undoFailed)}): ` +
      `the versions it replaced are kept under ${aside} with their paths; compare with git before anything else.`,
    error,
  );
}
