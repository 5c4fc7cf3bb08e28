/**
 * `repairmon`: one binary, one subcommand per module under commands/. Exit codes: 0 success,
 * 1 the job found a problem, 2 bad usage (unknown flag, bad value, bad config).
 */
import { type CommandIo, UsageError, commandHelp, parseCommandArgs } from './command.js';
import { COMMANDS, type CommandEntry, GENERATOR_MISSING, missingPackage } from './commands/index.js';

function topHelp(commands: readonly CommandEntry[]): string {
  const rows = commands.map((c) => `  ${c.name.padEnd(14)} ${c.summary}`);
  return [
    'Usage: repairmon <command> [flags]',
    '',
    'Toolkit for the Repair-Service Integration API v1.',
    '',
    'Commands:',
    ...rows,
    '',
    "Run 'repairmon <command> --help' for the flags of one command.",
    '',
  ].join('\n');
}

function defaultIo(): CommandIo & { dispose(): void } {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => controller.abort(new Error(`received ${signal}`));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

async function runEntry(entry: CommandEntry, rest: readonly string[], io: CommandIo): Promise<number> {
  const command = (await entry.load()).default;
  try {
    const { values, positionals } = parseCommandArgs(command, rest);
    if (values['help'] === true) {
      io.stdout.write(commandHelp(command));
      return 0;
    }
    return await command.run({ ...io, values, positionals });
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`repairmon ${command.name}: ${error.message}\nRun 'repairmon ${command.name} --help' for usage.\n`);
      return 2;
    }
    throw error;
  }
}

export async function main(argv: readonly string[], io: CommandIo & { dispose?(): void } = defaultIo()): Promise<number> {
  try {
    const commands = COMMANDS;
    const [name, ...rest] = argv;
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(topHelp(commands));
      return name === undefined ? 2 : 0;
    }
    const entry = commands.find((c) => c.name === name);
    if (!entry) {
      io.stderr.write(`repairmon: unknown command "${name}". Commands: ${commands.map((c) => c.name).join(', ')}\n`);
      return 2;
    }
    try {
      return await runEntry(entry, rest, io);
    } catch (error) {
      // An install without the generator (the monitor image): one line, not a module stack trace.
      const missing = missingPackage(entry, error);
      if (missing === undefined) throw error;
      io.stderr.write(`repairmon ${entry.name}: ${GENERATOR_MISSING} (cannot load ${missing})\n`);
      return 2;
    }
  } finally {
    io.dispose?.();
  }
}
