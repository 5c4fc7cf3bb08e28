/**
 * Sends a page made of pieces as it is made. Between chunks the event loop is let go (or, when
 * the reader is slow, waited on: the page is not buffered whole), so a big page never keeps
 * /-/healthy, /metrics or another request waiting for its whole length; a reader that goes
 * away stops the making.
 */
import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Bytes gathered before a write: a few rows of the status page. */
const CHUNK_CHARS = 16 * 1024;

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export async function streamBody(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  parts: Iterable<string>,
): Promise<void> {
  res.writeHead(status, headers);
  let pending = '';
  for (const part of parts) {
    pending += part;
    if (pending.length < CHUNK_CHARS) continue;
    const flushed = res.write(pending);
    pending = '';
    if (res.destroyed) return;
    if (!flushed) await drained(res);
    // Always a real turn of the event loop: a loopback socket often drains at once, within
    // the same turn, which would let no other request in.
    await nextTurn();
    if (res.destroyed) return;
  }
  res.end(pending);
}
