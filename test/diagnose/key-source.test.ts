import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type TtyInput, chooseKeySource, readKey } from '../../diagnose/key-source.js';

const SECRET = 'rs_test_keySourceSecret0000abcd';

function sink(): PassThrough & { text(): string } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  return Object.assign(out, { text: () => text });
}

describe('chooseKeySource', () => {
  it('takes exactly one source', () => {
    expect(chooseKeySource({ keyEnv: 'K', keyStdin: false }, false)).toEqual({ ok: true, source: { kind: 'env', name: 'K' } });
    const two = chooseKeySource({ keyEnv: 'K', keyFile: '/f', keyStdin: false }, false);
    expect(two.ok).toBe(false);
  });

  it('prompts on a terminal and names the flags without one', () => {
    expect(chooseKeySource({ keyStdin: false }, true)).toEqual({ ok: true, source: { kind: 'prompt' } });
    const none = chooseKeySource({ keyStdin: false }, false);
    expect(none.ok === false && none.reason).toMatch(/--key-env VAR.*--key-file PATH.*--key-stdin/);
  });
});

describe('readKey', () => {
  const io = (stdin: TtyInput = Readable.from([])) => ({ env: { K: `${SECRET}\n`, EMPTY: '' }, stdin, stderr: sink() });

  it('reads an env var, trimmed, showing only the last 4', async () => {
    const read = await readKey({ kind: 'env', name: 'K' }, io());
    expect(read.ok && read.key.reveal()).toBe(SECRET);
    expect(read.ok && String(read.key)).toBe('customer-key(…abcd)');
  });

  it('names an empty or missing variable and a bad name', async () => {
    expect(await readKey({ kind: 'env', name: 'EMPTY' }, io())).toEqual({
      ok: false,
      reason: '--key-env: environment variable EMPTY is not set or empty',
    });
    expect((await readKey({ kind: 'env', name: 'A B' }, io())).ok).toBe(false);
    // A long non-name (a key of a shape no guess catches: lowercase hex, a UUID) is never echoed whole.
    const uuid = '3f1c9a2e-7b4d-4e8a-9c1f-0a2b3c4d5e6f';
    expect(await readKey({ kind: 'env', name: uuid }, io())).toEqual({
      ok: false,
      reason: '--key-env "…5e6f (36 characters)" is not an environment variable name',
    });
    // A path with a folder is a path, even when its file name holds a key prefix: shown short (a
    // prefix is never echoed), without the "looks like the key itself" hint.
    const inFolder = await readKey({ kind: 'file', path: '/no/such/rs_test_nowak.key' }, io());
    expect(inFolder.ok === false && inFolder.reason).toBe('--key-file: cannot read "….key" (ENOENT)');
  });

  it('reads a file and names an unreadable one without content', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'probe-key-'));
    await writeFile(join(dir, 'key'), `${SECRET}\n`);
    const read = await readKey({ kind: 'file', path: join(dir, 'key') }, io());
    expect(read.ok && read.key.reveal()).toBe(SECRET);
    const missing = await readKey({ kind: 'file', path: join(dir, 'nope') }, io());
    expect(missing).toEqual({ ok: false, reason: `--key-file: cannot read "${join(dir, 'nope')}" (ENOENT)` });
    await writeFile(join(dir, 'two'), `${SECRET} other`);
    const spaced = await readKey({ kind: 'file', path: join(dir, 'two') }, io());
    expect(spaced.ok === false && spaced.reason).toContain('whitespace');
    expect(spaced.ok === false && spaced.reason).not.toContain(SECRET);
  });

  it('the key itself pasted for --key-env or --key-file: refused showing its last 4 characters only', async () => {
    for (const pasted of [SECRET, 'Xq7vR2mPz9KwT4bNc8LdY3hJ']) {
      const last4 = pasted.slice(-4);
      const env = await readKey({ kind: 'env', name: pasted }, io());
      expect(env).toEqual({
        ok: false,
        reason: `--key-env "…${last4}" looks like the key itself: give the name of the variable that holds it`,
      });
      const file = await readKey({ kind: 'file', path: pasted }, io());
      expect(file.ok === false && file.reason).toBe(
        `--key-file: cannot read "…${last4}" (ENOENT): it looks like the key itself; write the key into a file and give its path, or use --key-stdin`,
      );
    }
  });

  it('reads stdin', async () => {
    const read = await readKey({ kind: 'stdin' }, io(Readable.from([Buffer.from(`${SECRET}\n`)])));
    expect(read.ok && read.key.reveal()).toBe(SECRET);
  });

  it('prompts with hidden input in raw mode, handling backspace', async () => {
    const stdin = new PassThrough() as PassThrough & TtyInput;
    const modes: boolean[] = [];
    stdin.isTTY = true;
    stdin.setRawMode = (mode: boolean) => modes.push(mode);
    const streams = io(stdin);
    const pending = readKey({ kind: 'prompt' }, streams);
    stdin.write(`${SECRET}x\u007f\r`);
    const read = await pending;
    expect(read.ok && read.key.reveal()).toBe(SECRET);
    expect(modes).toEqual([true, false]);
    expect(streams.stderr.text()).toBe('API key (input hidden): \n');
  });

  it('Ctrl-C at the prompt cancels', async () => {
    const stdin = new PassThrough() as PassThrough & TtyInput;
    stdin.isTTY = true;
    stdin.setRawMode = () => undefined;
    const pending = readKey({ kind: 'prompt' }, io(stdin));
    stdin.write('abc\u0003');
    expect(await pending).toEqual({ ok: false, reason: 'cancelled at the key prompt' });
  });
});
