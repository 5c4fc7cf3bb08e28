/**
 * `repairmon` in this process: the same argv parsing and command code the binary runs, with a
 * CommandIo whose streams are captured in memory and whose signal the test fires. A node start
 * per run would often cost more than the run (the child-process rig is `rig.ts`).
 */
import { PassThrough } from 'node:stream';
import type { CommandIo } from '../../cli/command.js';
import { main } from '../../cli/index.js';

export interface FakeIo extends CommandIo {
  /** Open until a test ends it (with the input a command reads). */
  readonly stdin: PassThrough & { isTTY?: boolean };
  stdoutText(): string;
  stderrText(): string;
  /** Resolves with the first complete stdout line. */
  firstLine(): Promise<string>;
  abort(): void;
}

function capture(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return () => Buffer.concat(chunks).toString('utf8');
}

export function fakeIo(): FakeIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const controller = new AbortController();
  const stdoutText = capture(stdout);
  const stderrText = capture(stderr);
  return {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: {},
    signal: controller.signal,
    stdoutText,
    stderrText,
    abort: () => controller.abort(new Error('test done')),
    firstLine: () =>
      new Promise((resolve) => {
        const check = (): void => {
          const text = stdoutText();
          if (text.includes('\n')) {
            stdout.off('data', check);
            resolve(text.slice(0, text.indexOf('\n')));
          }
        };
        stdout.on('data', check);
        check();
      }),
  };
}

export interface MainRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `repairmon ARGS` in this process, to its end, with `env` as its whole environment and `stdin` (then closed) as its input. */
export async function runMain(args: readonly string[], env: NodeJS.ProcessEnv = {}, stdin?: string): Promise<MainRun> {
  const io = { ...fakeIo(), env };
  if (stdin !== undefined) io.stdin.end(stdin);
  const code = await main([...args], io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}
