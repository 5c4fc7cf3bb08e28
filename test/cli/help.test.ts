/**
 * Every `--help` reads in a 100-column terminal without scrolling far: `repairmon --help`, each
 * command and subcommand, and the generator's (`yo repair-service --help` and `repairmon new`
 * print the same flags). At most 100 columns and about 40 lines (42), one style of description
 * (lower-case start, as a phrase continuing the flag), and the docs page the details moved to.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/commands/index.js';
import type { Command } from '../../cli/command.js';
import { main } from '../../cli/index.js';
import { generatorHelp } from '../../generators/app/flags.js';
import { dialectHelpLines } from '../../sandbox/index.js';
import { fakeIo } from '../helpers/fake-io.js';
import { ROOT } from '../helpers/rig.js';

const MAX_COLUMNS = 100;
const MAX_LINES = 42;

async function helpOf(argv: string[]): Promise<string> {
  const io = fakeIo();
  expect(await main(argv, io), argv.join(' ')).toBe(0);
  return io.stdoutText();
}

function expectFits(name: string, text: string): void {
  const lines = text.trimEnd().split('\n');
  const wide = lines.filter((l) => l.length > MAX_COLUMNS);
  expect(wide, `${name}: lines over ${MAX_COLUMNS} columns`).toEqual([]);
  expect(lines.length, `${name}: ${lines.length} lines`).toBeLessThanOrEqual(MAX_LINES);
}

const commands = async (): Promise<Command[]> => {
  const loaded = await Promise.all(COMMANDS.map(async (c) => ({ summary: c.summary, ...(await c.load()).default })));
  return [...loaded, ...loaded.flatMap((c) => c.subcommands ?? [])];
};

describe('--help', () => {
  it('repairmon --help fits', async () => {
    expectFits('repairmon --help', await helpOf(['--help']));
  });

  it('every command and subcommand fits, names its docs page, and starts every description lower-case', async () => {
    for (const command of await commands()) {
      const help = await helpOf([...command.name.split(' '), '--help']);
      expectFits(command.name, help);
      expect(command.docs, command.name).toMatch(/^docs\/\w+\.md/);
      expect(help, command.name).toContain(`Details: ${command.docs ?? ''}`);
      const docsFile = (command.docs ?? '').split('#')[0] ?? '';
      expect(readFileSync(join(ROOT, docsFile), 'utf8').length, docsFile).toBeGreaterThan(0);
      for (const [flag, spec] of Object.entries(command.options))
        expect(spec.description, `${command.name} --${flag}`).not.toMatch(/^[A-Z][a-z]/);
      expect(command.summary, command.name).not.toMatch(/^[A-Z][a-z]/);
    }
  });

  it('yo repair-service --help (the generator prints generatorHelp) fits and lists every flag as repairmon new does', async () => {
    const yo = generatorHelp();
    expectFits('yo repair-service --help', yo);
    const newHelp = await helpOf(['new', '--help']);
    for (const flag of ['--name', '--tenant', '--yes', '--force', '--bail', '--skip-install', '--interactive', '--parse'])
      expect([yo.includes(flag), newHelp.includes(flag)], flag).toEqual([true, true]);
    expect(yo).not.toMatch(/ {2}[A-Z][a-z]/);
    expect(newHelp).toContain('project name (also the directory to create)');
  });

  it('the dialect keys and presets left the sandbox help for docs/readings.md, which holds them as the code says', () => {
    const readings = readFileSync(join(ROOT, 'docs/readings.md'), 'utf8');
    const block = /<!-- generated:dialects -->\n```text\n([\s\S]*?)\n```\n<!-- \/generated:dialects -->/.exec(readings)?.[1];
    expect(block).toBe(dialectHelpLines().join('\n'));
  });
});
