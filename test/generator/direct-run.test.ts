/**
 * `repairmon new` without Yeoman (generators/run.ts): the same project as the Yeoman run of the
 * same flags, byte for byte; a run that must ask asks yo's questions through the prompt it is
 * given; one that cannot ask refuses. (A real terminal: new-command.test.ts.)
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ANSWER_NAMES } from '../../generators/app/answers.js';
import { isGeneratorRefusal } from '../../generators/entry.js';
import { type Prompt, runDirectly } from '../../generators/run.js';
import { ALL_FLAGS, CONFIG_KEY, runGenerator, snapshot } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'direct-run-'));
  dirs.push(dir);
  return dir;
}

function direct(contextRoot: string, options: Record<string, unknown>, prompt?: Prompt) {
  const said: string[] = [];
  const run = runDirectly({ contextRoot, configKey: CONFIG_KEY, options }, { prompt, log: (text) => said.push(text) }).then(() => 'done');
  return { run, said };
}

describe('the generator run without Yeoman', () => {
  it('writes the same files as the Yeoman run of the same flags, and says the next steps', async () => {
    const viaYeoman = tempDir();
    await runGenerator({ ...ALL_FLAGS, 'skip-install': true }).cd(viaYeoman);
    const viaDirect = tempDir();
    const { run, said } = direct(viaDirect, { ...ALL_FLAGS, 'skip-install': true, interactive: false });
    expect(await run).toBe('done');
    const fromYeoman = snapshot(join(viaYeoman, 'nowak-sync'));
    expect(fromYeoman.size).toBeGreaterThan(20);
    expect(snapshot(join(viaDirect, 'nowak-sync'))).toEqual(fromYeoman);
    expect(said.join('\n')).toContain('cd nowak-sync');
  });

  it("asks each missing answer with yo's question (the default offered, the reply trimmed), in prompt order", async () => {
    const cwd = tempDir();
    const asked: Record<string, unknown>[] = [];
    const prompt: Prompt = async ([question]) => {
      const q = question as Record<string, unknown>;
      asked.push(q);
      return { [q['name'] as string]: q['name'] === 'name' ? '  asked-shop  ' : q['default'] };
    };
    expect(await direct(cwd, { tenant: 'rowery-nowak', 'skip-install': true }, prompt).run).toBe('done');
    expect(asked.map((q) => q['name'])).toEqual(ANSWER_NAMES.filter((n) => n !== 'tenant'));
    expect(asked.find((q) => q['name'] === 'authScheme')).toMatchObject({ type: 'select', choices: ['bearer', 'x-api-key'] });
    const validate = asked.find((q) => q['name'] === 'name')?.['validate'] as (v: unknown) => true | string;
    expect(validate('ok-name')).toBe(true);
    expect(validate('Not A Name!')).toMatch(/^Project name /);
    expect(readdirSync(cwd)).toEqual(['asked-shop']);
  });

  it('Ctrl+C at a question (Inquirer\'s ExitPromptError) is "cancelled, nothing written", exit 130', async () => {
    const cwd = tempDir();
    const prompt: Prompt = () => Promise.reject(Object.assign(new Error('User force closed the prompt'), { name: 'ExitPromptError' }));
    const cancelled = await direct(cwd, { tenant: 'rowery-nowak' }, prompt).run.catch((error: unknown) => error);
    expect(isGeneratorRefusal(cancelled) && [cancelled.reason, cancelled.code, cancelled.message]).toEqual([
      'cancelled',
      130,
      'cancelled, nothing written',
    ]);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('refuses with the missing flags when nobody can be asked, and takes the defaults with --yes', async () => {
    const cwd = tempDir();
    const refused = await direct(cwd, { dir: 'shop', tenant: 'rowery-nowak' }).run.catch((error: unknown) => error);
    expect(isGeneratorRefusal(refused) && refused.reason).toBe('missing_answers');
    expect(readdirSync(cwd)).toEqual([]);
    expect(await direct(cwd, { dir: 'shop', tenant: 'rowery-nowak', yes: true, 'skip-install': true }).run).toBe('done');
    expect(readdirSync(cwd)).toEqual(['shop']);
  });
});
