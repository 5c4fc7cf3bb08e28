/**
 * `repairmon`: one binary, one subcommand per module under commands/. Exit codes: 0 success,
 * 1 the job found a problem, 2 bad usage (unknown flag, bad value, bad config).
 */
import { type Command, type CommandIo, UsageError, parseCommandArgs } from './command.js';
import { COMMANDS, type CommandEntry, GENERATOR_MISSING, missingPackage } from './commands/index.js';

function topHelp(): string {
  return [
    'Usage: repairmon <command> [flags]',
    '',
    'Toolkit for the Repair-Service Integration API v1.',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(14)} ${c.summary}`),
    '',
    "Run 'repairmon <command> --help' for the flags of one command, 'repairmon --version' for the",
    'version. Every page: docs/ in the package.',
    '',
  ].join('\n');
}

function defaultIo(trapSignals: boolean): CommandIo & { dispose(): void } {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => controller.abort(new Error(`received ${signal}`));
  if (trapSignals) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
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

async function runCommand(command: Command, rest: readonly string[], io: CommandIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs(command, rest);
    if (values['help'] === true) {
      // Loaded only for --help: it brings lib's entry (pino, zod, yaml) along.
      const { commandHelp } = await import('./help.js');
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

/** An install without the generator (the monitor image): one line and exit 2, not a module stack trace. */
function generatorMissing(entry: CommandEntry, error: unknown, stderr: CommandIo['stderr']): number {
  const missing = missingPackage(entry, error);
  if (missing === undefined) throw error;
  stderr.write(`repairmon ${entry.name}: ${GENERATOR_MISSING} (cannot load ${missing})\n`);
  return 2;
}

/** `given` (tests) or the process's own, its signals trapped only for a command that wants them. */
export async function main(argv: readonly string[], given?: CommandIo & { dispose?(): void }): Promise<number> {
  const out = given ?? { stdout: process.stdout, stderr: process.stderr };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    out.stdout.write(topHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    // Loaded here: lib's entry brings pino, zod and yaml, which help and dispatch do not need.
    const { packageVersion } = await import('../lib/index.js');
    out.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    out.stderr.write(`repairmon: unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')}\n`);
    return 2;
  }
  let command: Command;
  try {
    command = { summary: entry.summary, ...(await entry.load()).default };
  } catch (error) {
    return generatorMissing(entry, error, out.stderr);
  }
  // `repairmon sandbox fault ...`: a subcommand has its own flags and help.
  const sub = command.subcommands?.find((s) => s.name === `${command.name} ${rest[0] ?? ''}`);
  if (sub) command = sub;
  const io = given ?? defaultIo(command.trapsSignals !== false);
  try {
    try {
      return await runCommand(command, sub ? rest.slice(1) : rest, io);
    } catch (error) {
      return generatorMissing(entry, error, io.stderr);
    }
  } finally {
    io.dispose?.();
  }
}
