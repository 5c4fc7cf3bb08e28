/**
 * The CLI on a pseudo-terminal (util-linux `script`, see `scriptAvailable`): what the test writes
 * to script's stdin is typed into it. Each step is a text to wait for and the keys to type once
 * it shows, in order, each a moment later (a prompt is drawn just before it reads its keys).
 */
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { shellQuote } from '../../api/checklist/index.js';
import { BIN, childEnv } from './rig.js';

export interface TerminalRun {
  readonly code: number | null;
  /** Everything the terminal showed, escape sequences removed. */
  readonly text: string;
  /** How many steps were typed. */
  readonly typed: number;
}

export function runOnTerminal(
  args: readonly string[],
  steps: ReadonlyArray<readonly [waitFor: string, keys: string]>,
  options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv; readonly timeoutMs?: number } = {},
): Promise<TerminalRun> {
  const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd,
    env: childEnv({ TERM: 'xterm', ...options.env }),
    stdio: 'pipe',
  });
  child.stdin.on('error', () => undefined); // keys typed after the run ended
  let out = '';
  let typed = 0;
  const read = (chunk: Buffer): void => {
    out += chunk.toString('utf8');
    const step = steps[typed];
    if (step === undefined || !stripVTControlCharacters(out).includes(step[0])) return;
    typed += 1;
    setTimeout(() => child.stdin.write(step[1]), 300);
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  // A step that never shows would leave script waiting on its terminal: end it, and say so in the text.
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 45_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, text: stripVTControlCharacters(out), typed });
    });
  });
}
