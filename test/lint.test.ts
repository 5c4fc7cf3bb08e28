/**
 * The linter and the formatter as tests, so that `npm test` (and so CI) runs them: exactly what
 * `npm run lint` runs, ESLint with zero warnings and `prettier --check`, over the whole
 * repository. eslint.config.js and .prettierignore say what each covers and why.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT, runProcess } from './helpers/rig.js';

const bin = (name: string): string => join(ROOT, 'node_modules', '.bin', name);

describe('lint', () => {
  // The timeouts only catch a hang: about 95 s (ESLint) and 30 s (Prettier) on a quiet 2-core
  // runner, past 240 s and 60 s with two suites sharing its cores.
  it('ESLint reports no problem, warnings included', { timeout: 600_000 }, async () => {
    const run = await runProcess(process.execPath, [bin('eslint'), '.', '--max-warnings', '0'], { cwd: ROOT, timeoutMs: 600_000 });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('every file Prettier covers is formatted', { timeout: 240_000 }, async () => {
    const run = await runProcess(process.execPath, [bin('prettier'), '--check', '--log-level', 'warn', '.'], {
      cwd: ROOT,
      timeoutMs: 240_000,
    });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('a rule switched off in place without a reason on the same line is itself a problem', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const lint = async (text: string): Promise<(string | null)[]> =>
      (await eslint.lintText(text, { filePath: join(ROOT, 'bin', 'example.js') })).flatMap((r) => r.messages.map((m) => m.ruleId));
    expect(await lint('// eslint-disable-next-line no-debugger\ndebugger;\n')).toEqual([
      '@eslint-community/eslint-comments/require-description',
    ]);
    expect(await lint('// eslint-disable-next-line no-debugger -- the example needs one\ndebugger;\n')).toEqual([]);
    expect(await lint('debugger;\n')).toEqual(['no-debugger']);
  });
});
