/**
 * Writing a file the sandbox owns (the `--tls-ca-out` CA, the `--monitor-out` config and keys)
 * where another user may have planted something: a temp file created exclusively beside the
 * target (O_EXCL never follows a link), then renamed over it. A rename replaces a link planted
 * at the target instead of writing through it, and a reader never sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { lstat, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What is at `path` now: nothing, a regular file (its text is read only by the caller), or something never to replace. */
export async function existingKind(path: string): Promise<'none' | 'file' | 'link' | 'other'> {
  try {
    const stat = await lstat(path);
    if (stat.isSymbolicLink()) return 'link';
    return stat.isFile() ? 'file' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
}

/** Writes `text` to `path` through a fresh temp file and one rename. */
export async function replaceFile(path: string, text: string, mode: number): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temp, text, { mode, flag: 'wx' });
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
