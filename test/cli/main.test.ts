/** The CLI skeleton: strict flags (exit 2 naming the flag), help listing every flag of every command. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/index.js';
import { COMMANDS } from '../../cli/commands/index.js';
import { fakeIo } from '../helpers/fake-io.js';

describe('repairmon', () => {
  it('with no command prints usage and exits 2', async () => {
    const io = fakeIo();
    expect(await main([], io)).toBe(2);
    expect(io.stdoutText()).toContain('Usage: repairmon <command>');
  });

  it('--help lists every command and exits 0', async () => {
    const io = fakeIo();
    expect(await main(['--help'], io)).toBe(0);
    for (const c of COMMANDS) expect(io.stdoutText()).toContain(c.name);
  });

  it('--version and -V print the version of our package.json and exit 0', async () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const io = fakeIo();
      expect(await main([flag], io), flag).toBe(0);
      expect(io.stdoutText(), flag).toBe(`${version}\n`);
      expect(io.stderrText(), flag).toBe('');
    }
  });

  it('an unknown command exits 2 naming it', async () => {
    const io = fakeIo();
    expect(await main(['teleport'], io)).toBe(2);
    expect(io.stderrText()).toContain('unknown command "teleport"');
  });

  describe.each(COMMANDS.map((c) => [c.name, c] as const))('%s', (_name, entry) => {
    it('--help lists every flag and exits 0', async () => {
      const command = (await entry.load()).default;
      expect(command.name).toBe(entry.name);
      const io = fakeIo();
      expect(await main([entry.name, '--help'], io)).toBe(0);
      for (const flag of [...Object.keys(command.options), 'help']) expect(io.stdoutText()).toContain(`--${flag}`);
    });

    it('an unknown flag exits 2 naming the flag', async () => {
      const io = fakeIo();
      expect(await main([entry.name, '--no-such-flag-xyz'], io)).toBe(2);
      expect(io.stderrText()).toContain('--no-such-flag-xyz');
    });
  });

  it('a subcommand (repairmon sandbox fault) has its own help listing its flags, and its own strict flags', async () => {
    const subs = (await Promise.all(COMMANDS.map(async (c) => (await c.load()).default.subcommands ?? []))).flat();
    expect(subs.map((s) => s.name)).toContain('sandbox fault');
    for (const sub of subs) {
      const help = fakeIo();
      expect(await main([...sub.name.split(' '), '--help'], help)).toBe(0);
      expect(help.stdoutText()).toContain(`Usage: repairmon ${sub.name}`);
      for (const flag of [...Object.keys(sub.options), 'help']) expect(help.stdoutText()).toContain(`--${flag}`);
      const bad = fakeIo();
      expect(await main([...sub.name.split(' '), '--no-such-flag-xyz'], bad)).toBe(2);
      expect(bad.stderrText()).toContain(`repairmon ${sub.name}: Unknown option '--no-such-flag-xyz'`);
    }
  });
});
