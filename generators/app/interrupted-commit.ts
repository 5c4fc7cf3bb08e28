/**
 * A staging folder left in a project by a run that was killed part-way through its commit
 * (staged-commit.ts): some files already new, some moved aside into the folder, `.yo-rc.json`
 * still naming the old version. The next run rolls it back before it plans anything, so the
 * project is as it was before that run (every file moved aside put back, the user's edited
 * versions included; every file it had added removed), then does its own work in full.
 *
 * A folder whose name carries the id of a process still running belongs to a run in progress
 * and is left alone. A folder without a journal moved nothing yet: the journal is written
 * before the first move, and no release made such a folder without one.
 */
import { existsSync, lstatSync, readdirSync, rmdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { DOCUMENT_FILE_MAX_BYTES, readUserFile } from '../../lib/index.js';
import {
  type CommitIo,
  JOURNAL,
  type JournalEntry,
  STAGING_PREFIX,
  commitIo,
  destination,
} from './staged-commit.js';

/** One leftover folder rolled back: what it held and what was done. */
export interface Recovery {
  readonly folder: string;
  /** Files put back from the folder (the versions the interrupted run had replaced or removed). */
  readonly restored: readonly string[];
  /** Files the interrupted run had added, removed again. */
  readonly removed: readonly string[];
  /** New files it had staged but not yet placed, dropped with the folder. */
  readonly unplaced: number;
}

/** Whether process `pid` exists (EPERM: it does, another user's). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function leftovers(root: string): string[] {
  if (!existsSync(root) || !lstatSync(root).isDirectory()) return [];
  return readdirSync(root).filter((name) => {
    if (!name.startsWith(STAGING_PREFIX) || !lstatSync(join(root, name)).isDirectory())
      return false;
    const pid = /^(\d+)-/.exec(name.slice(STAGING_PREFIX.length))?.[1];
    return pid === undefined || Number(pid) === process.pid || !running(Number(pid));
  });
}

function readJournal(staging: string): readonly JournalEntry[] | undefined {
  const read = readUserFile(join(staging, JOURNAL), DOCUMENT_FILE_MAX_BYTES);
  if (!read.ok) return undefined;
  const parsed = JSON.parse(read.text) as { changes?: unknown };
  const valid = (e: unknown): e is JournalEntry =>
    typeof (e as JournalEntry).path === 'string' &&
    typeof (e as JournalEntry).contents === 'boolean';
  if (!Array.isArray(parsed.changes) || !parsed.changes.every(valid))
    throw new Error(`${JOURNAL} is not a journal of ours`);
  return parsed.changes;
}

/** Folders the interrupted run created for a file it added, now empty: removed up to the root. */
function removeEmptyParents(root: string, file: string): void {
  for (
    let dir = dirname(file);
    relative(root, dir) !== '' && !relative(root, dir).startsWith('..');
    dir = dirname(dir)
  ) {
    if (readdirSync(dir).length > 0) return;
    rmdirSync(dir);
  }
}

function rollBackOne(root: string, staging: string, io: CommitIo): Omit<Recovery, 'folder'> {
  const aside = join(staging, 'old');
  const journal = readJournal(staging);
  const restored: string[] = [];
  const removed: string[] = [];
  let unplaced = 0;
  const putBack = (path: string): void => {
    const dest = destination(root, path);
    if (existsSync(dest)) io.remove(dest);
    io.rename(join(aside, path), dest);
    restored.push(path);
  };
  // In reverse, as the run's own rollback does: the last change made is the first undone. No
  // journal: the run died before its first move, having staged files only.
  for (const [i, entry] of [...(journal ?? []).entries()].reverse()) {
    const placed = entry.contents && !existsSync(join(staging, 'new', String(i)));
    if (entry.contents && !placed) unplaced += 1;
    if (existsSync(join(aside, entry.path))) putBack(entry.path);
    else if (placed) {
      const dest = destination(root, entry.path);
      io.remove(dest);
      removeEmptyParents(root, dest);
      removed.push(entry.path);
    }
  }
  if (journal === undefined && existsSync(join(staging, 'new')))
    unplaced = readdirSync(join(staging, 'new')).length;
  io.remove(staging);
  return { restored: restored.sort(), removed: removed.sort(), unplaced };
}

/** Rolls back every leftover staging folder of a dead run in `root`; what each held. */
export function recoverInterrupted(root: string, io: CommitIo = commitIo): Recovery[] {
  return leftovers(root).map((name) => ({
    folder: name,
    ...rollBackOne(root, join(root, name), io),
  }));
}

/** The report of a recovery, for the run's output. */
export function recoveryMessage(recovery: Recovery): string {
  const list = (paths: readonly string[]): string =>
    paths.length === 0 ? 'none' : paths.join(', ');
  return [
    `${recovery.folder} was left by an interrupted run (killed while putting its files in place); rolled it back:`,
    `  put back ${recovery.restored.length} file(s) it had replaced or removed: ${list(recovery.restored)}`,
    `  removed ${recovery.removed.length} file(s) it had added: ${list(recovery.removed)}`,
    `  dropped ${recovery.unplaced} new file(s) it had not placed yet`,
    'The project is as it was before that run; this run now does its work in full.',
  ].join('\n');
}
