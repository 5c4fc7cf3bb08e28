/**
 * The one way the tools read a file a user names (a monitor config, a secret, token or CA file,
 * the sandbox's `--data` and `--keys`, `--key-file`): only a regular file (links followed),
 * never blocking, never more than a stated cap. A FIFO would hold `open()` until a writer came
 * (freezing a monitor on reload), `/dev/zero` would be read until memory ran out.
 *
 * The file is opened with O_NONBLOCK and the opened descriptor is examined (stat-then-open
 * could be raced by a swap in between); a FIFO opened that way for reading returns at once.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

/** A secret, token or `--key-file`: an API key is tens of characters; 8 KiB leaves room for a comment. */
export const SECRET_FILE_MAX_BYTES = 8 * 1024;
/** A config, CA bundle, keys or data file: a system CA bundle is ~220 KiB, our configs a few KiB. */
export const DOCUMENT_FILE_MAX_BYTES = 8 * 1024 * 1024;

export type UserFileRead =
  | { readonly ok: true; readonly text: string }
  /** `code`: the system's (ENOENT, EACCES...) or ours (NOT_REGULAR, TOO_LARGE); `reason` reads after the path. */
  | { readonly ok: false; readonly code: string; readonly reason: string };

/** What a non-regular file is, for the message. */
function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

const sizeText = (bytes: number): string => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`);

function refusal(code: string, reason: string): UserFileRead {
  return { ok: false, code, reason };
}

/** Why the open failed; a socket cannot be opened at all (ENXIO), so its kind is looked up. */
function openFailure(path: string, error: NodeJS.ErrnoException): UserFileRead {
  const code = error.code ?? 'read error';
  if (code === 'ENXIO') {
    try {
      return refusal('NOT_REGULAR', `is ${kindOf(statSync(path))}; give a regular file`);
    } catch {
      // Gone meanwhile: the system's code says enough.
    }
  }
  return refusal(code, `cannot be read (${code})`);
}

const CHUNK_BYTES = 64 * 1024;

/** Reads until the end, or undefined once past `maxBytes`, whatever the file's size claims (/proc says 0). */
function readCapped(fd: number, maxBytes: number): Buffer | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > maxBytes) return undefined;
  }
}

/** `cannot read <what> <path> (ENOENT)` (as before this reader), or `<what> <path> is a FIFO (named pipe); ...`. */
export function userFileProblem(what: string, shown: string, read: { code: string; reason: string }): string {
  const named = what === '' ? shown : `${what} ${shown}`;
  return read.code === 'NOT_REGULAR' || read.code === 'TOO_LARGE' ? `${named} ${read.reason}` : `cannot read ${named} (${read.code})`;
}

/** The file's text (UTF-8), or why not: `reason` reads after the path (`/x.key is a FIFO ...`). */
export function readUserFile(path: string, maxBytes: number): UserFileRead {
  let fd: number;
  try {
    // O_NONBLOCK is 0 where the platform has none (Windows has no FIFOs to block on either).
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return openFailure(path, error as NodeJS.ErrnoException);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return refusal('NOT_REGULAR', `is ${kindOf(stat)}; give a regular file`);
    const tooLarge = refusal('TOO_LARGE', `is larger than ${sizeText(maxBytes)} (the limit for this file)`);
    if (stat.size > maxBytes) return tooLarge;
    const bytes = readCapped(fd, maxBytes);
    return bytes === undefined ? tooLarge : { ok: true, text: bytes.toString('utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'read error';
    return refusal(code, `cannot be read (${code})`);
  } finally {
    closeSync(fd);
  }
}
