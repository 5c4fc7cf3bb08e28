/**
 * Where the customer's key comes from: never argv (it shows in `ps` and shell history), but an
 * environment variable, a file, stdin, or a hidden prompt. Errors name the source, never its content.
 */
import type { Readable, Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { ApiKey } from '../api/client/index.js';
import { SECRET_FILE_MAX_BYTES, looksLikeSecret, readUserFile, shownValue, userFileProblem } from '../lib/index.js';

type KeySource = { kind: 'env'; name: string } | { kind: 'file'; path: string } | { kind: 'stdin' } | { kind: 'prompt' };
type KeyRead = { readonly ok: true; readonly key: ApiKey } | { readonly ok: false; readonly reason: string };

const KEY_ALIAS = 'customer-key';

/** How to pass a key to `repairmon <command>`, for messages refusing one on argv. */
export function keyFlagsHint(command: string): string {
  return `--key-env VAR (an environment variable), --key-file PATH or --key-stdin (e.g. \`pass show key | repairmon ${command} --key-stdin ...\`)`;
}
const KEY_FLAGS_HINT = keyFlagsHint('probe');

export type TtyInput = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

export function chooseKeySource(
  flags: { keyEnv?: string | undefined; keyFile?: string | undefined; keyStdin: boolean },
  stdinIsTty: boolean,
): { readonly ok: true; readonly source: KeySource } | { readonly ok: false; readonly reason: string } {
  const chosen: KeySource[] = [];
  if (flags.keyEnv !== undefined) chosen.push({ kind: 'env', name: flags.keyEnv });
  if (flags.keyFile !== undefined) chosen.push({ kind: 'file', path: flags.keyFile });
  if (flags.keyStdin) chosen.push({ kind: 'stdin' });
  if (chosen.length > 1) return { ok: false, reason: 'give only one of --key-env, --key-file, --key-stdin' };
  const [source] = chosen;
  if (source) return { ok: true, source };
  if (stdinIsTty) return { ok: true, source: { kind: 'prompt' } };
  return { ok: false, reason: `no key given and no terminal to ask on; pass it with ${KEY_FLAGS_HINT}` };
}

function toKey(value: string, from: string): KeyRead {
  try {
    return { ok: true, key: new ApiKey(value, KEY_ALIAS) };
  } catch (error) {
    // ApiKey's messages name the alias only; say where the value came from.
    const why = error instanceof Error ? error.message.replace(`API key "${KEY_ALIAS}"`, 'the key') : 'not a usable key';
    return { ok: false, reason: `${from}: ${why}` };
  }
}

/** Reads one line without echoing it. Resolves undefined on Ctrl-C. */
function promptHidden(stdin: TtyInput, stderr: Writable, question: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    let typed = '';
    // Echo goes off before the prompt shows, so nothing typed after it can be echoed.
    stdin.setRawMode?.(true);
    stderr.write(question);
    stdin.setEncoding('utf8');
    const finish = (value: string | undefined): void => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
      resolve(value);
    };
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish(typed);
        if (ch === '\u0003') return finish(undefined);
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.on('data', onData);
    stdin.resume();
  });
}

export async function readKey(source: KeySource, io: { env: NodeJS.ProcessEnv; stdin: TtyInput; stderr: Writable }): Promise<KeyRead> {
  switch (source.kind) {
    case 'env': {
      // The key pasted for its variable's name (ours are valid names too) is never echoed.
      if (looksLikeSecret(source.name))
        return {
          ok: false,
          reason: `--key-env "${shownValue(source.name)}" looks like the key itself: give the name of the variable that holds it`,
        };
      // Not a name. A long one is never echoed whole: it may be a key of a shape the guess above misses.
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(source.name)) {
        const shown = source.name.length < 16 ? source.name : `…${source.name.slice(-4)} (${source.name.length} characters)`;
        return { ok: false, reason: `--key-env "${shown}" is not an environment variable name` };
      }
      const value = io.env[source.name];
      if (value === undefined || value.trim() === '')
        return { ok: false, reason: `--key-env: environment variable ${source.name} is not set or empty` };
      return toKey(value, `--key-env ${source.name}`);
    }
    case 'file': {
      const read = readUserFile(source.path, SECRET_FILE_MAX_BYTES);
      // The key itself pasted for its file's path is shown as its last 4 characters.
      const shown = shownValue(source.path);
      // A path with a folder in it is a path, even when its file name holds a key prefix.
      const pasted =
        !/[/\\]/.test(source.path) && looksLikeSecret(source.path)
          ? ': it looks like the key itself; write the key into a file and give its path, or use --key-stdin'
          : '';
      if (!read.ok) return { ok: false, reason: `--key-file: ${userFileProblem('', `"${shown}"`, read)}${pasted}` };
      return toKey(read.text, `--key-file ${shown}`);
    }
    case 'stdin':
      return toKey(await text(io.stdin), '--key-stdin');
    case 'prompt': {
      const typed = await promptHidden(io.stdin, io.stderr, 'API key (input hidden): ');
      if (typed === undefined) return { ok: false, reason: 'cancelled at the key prompt' };
      return toKey(typed, 'the key prompt');
    }
  }
}

/** A one-line progress indicator, written only to a terminal, so piped stderr and tests see nothing. */
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
