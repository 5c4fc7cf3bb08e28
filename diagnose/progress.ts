/**
 * A one-line progress indicator for a terminal. Writes only when the stream is a TTY, so
 * piped stderr and tests see nothing.
 */
import type { Writable } from 'node:stream';

export function createProgress(stream: Writable & { isTTY?: boolean }) {
  let shown = false;
  return {
    update(done: number, label: string) {
      if (stream.isTTY !== true) return;
      shown = true;
      stream.write(`\r\u001b[2Kprobing [${done + 1}] ${label}`);
    },
    clear() {
      if (shown) stream.write('\r\u001b[2K');
      shown = false;
    },
  };
}
