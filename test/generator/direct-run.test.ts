/**
 * `repairmon new` without Yeoman (generators/run.ts): the same project as the Yeoman run of the
 * same flags, byte for byte; a run that must ask hands over; one that cannot ask refuses.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isGeneratorRefusal } from '../../generators/entry.js';
import { runDirectly } from '../../generators/run.js';
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

function direct(contextRoot: string, options: Record<string, unknown>, interactive = false) {
  const said: string[] = [];
  const run = runDirectly({ contextRoot, configKey: CONFIG_KEY, options }, { interactive, log: (text) => said.push(text) });
  return { run, said };
}

describe('the generator run without Yeoman', () => {
  it('writes the same files as the Yeoman run of the same flags, and says the next steps', async () => {
    const viaYeoman = tempDir();
    await runGenerator({ ...ALL_FLAGS, 'skip-install': true }).cd(viaYeoman);
    const viaDirect = tempDir();
    const { run, said } = direct(viaDirect, { ...ALL_FLAGS, 'skip-install': true, interactive: false });
    expect(await run).toEqual({ kind: 'done' });
    const fromYeoman = snapshot(join(viaYeoman, 'nowak-sync'));
    expect(fromYeoman.size).toBeGreaterThan(20);
    expect(snapshot(join(viaDirect, 'nowak-sync'))).toEqual(fromYeoman);
    expect(said.join('\n')).toContain('cd nowak-sync');
  });

  it('hands over to the prompts when an answer is missing and a terminal can ask, writing nothing', async () => {
    const cwd = tempDir();
    expect(await direct(cwd, { tenant: 'rowery-nowak' }, true).run).toEqual({ kind: 'needs_prompts' });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('refuses with the missing flags when nobody can be asked, and takes the defaults with --yes', async () => {
    const cwd = tempDir();
    const refused = await direct(cwd, { dir: 'shop', tenant: 'rowery-nowak' }).run.catch((error: unknown) => error);
    expect(isGeneratorRefusal(refused) && refused.reason).toBe('missing_answers');
    expect(readdirSync(cwd)).toEqual([]);
    expect(await direct(cwd, { dir: 'shop', tenant: 'rowery-nowak', yes: true, 'skip-install': true }).run).toEqual({ kind: 'done' });
    expect(readdirSync(cwd)).toEqual(['shop']);
  });
});
