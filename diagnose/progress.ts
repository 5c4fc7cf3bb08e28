/**
 * A one-line progress indicator for a terminal. Writes only when the stream is a TTY, so
 * piped stderr and tests see nothing.
 */
import type { Writable } from 'node:stream';

export interface Progress {
  update(done: number, label: string): void;
  clear(): void;
}

export function createProgress(stream: Writable & { isTTY?: boolean }): Progress {
  if (stream.isTTY !== true) return { update() {}, clear() {} };
  let shown = false;
  return {
    update(done, label) {
      shown = true;
      stream.write(`\r\u001b[2Kprobing [${done + 1}] ${label}`);
    },
    clear() {
      if (shown) stream.write('\r\u001b[2K');
      shown = false;
    },
  };
}
