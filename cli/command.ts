/**
 * What a `repairmon` subcommand is, and strict parsing of its flags. Unknown flags and bad
 * values become a UsageError, which main turns into exit code 2 with a message naming the flag.
 */
import { parseArgs } from 'node:util';
import type { Readable, Writable } from 'node:stream';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly description: string;
  readonly short?: string;
  readonly multiple?: boolean;
  /** Shown in help, e.g. `PORT`. */
  readonly valueName?: string;
  readonly default?: string | boolean;
}

type OptionValues = Record<string, string | boolean | string[] | undefined>;

export interface CommandIo {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdin: Readable & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM; long-running commands close cleanly when it fires. */
  readonly signal: AbortSignal;
}

export interface CommandContext extends CommandIo {
  readonly values: OptionValues;
  readonly positionals: readonly string[];
}

export interface Command {
  readonly name: string;
  /** What it does; a top-level command's is its line in `commands/index.ts`, unless it says more. */
  readonly summary?: string;
  readonly positionals?: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /**
   * False for a command with nothing to close: SIGINT/SIGTERM then end the process at once, even
   * mid synchronous work a handler could not interrupt. Default true: they abort `signal`.
   */
  readonly trapsSignals?: boolean;
  /** The docs page with what the help leaves out, e.g. `docs/sandbox.md`. */
  readonly docs?: string;
  /** Commands run as `repairmon NAME SUB ...`; each one's name is `NAME SUB`. */
  readonly subcommands?: readonly Command[];
  run(ctx: CommandContext): Promise<number>;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

export function parseCommandArgs(command: Command, argv: readonly string[]): { values: OptionValues; positionals: string[] } {
  try {
    // parseArgs reads type, short, multiple and default from the specs.
    const options = { ...COMMON_OPTIONS, ...command.options };
    const parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: command.positionals !== undefined });
    return { values: { ...parsed.values } as OptionValues, positionals: parsed.positionals };
  } catch (error) {
    // node:util names the flag in its message ("Unknown option '--x'"); keep that, drop its advice.
    const message = error instanceof Error ? (error.message.split('. To specify')[0] ?? error.message) : String(error);
    throw new UsageError(message);
  }
}

export function stringValue(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function stringList(values: OptionValues, name: string): string[] {
  const value = values[name];
  if (Array.isArray(value)) return value;
  return typeof value === 'string' ? [value] : [];
}

/** Reads a number flag (`whole`: an integer) within bounds, naming the flag and the bad value on error. */
export function numberValue(values: OptionValues, name: string, bounds: { min: number; max: number }, whole = false): number | undefined {
  const raw = stringValue(values, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (whole && !/^-?\d+$/.test(raw.trim())) throw new UsageError(`--${name} must be a whole number, got "${raw}"`);
  if (raw.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--${name} must be a number, got "${raw}"`);
  if (value < bounds.min || value > bounds.max)
    throw new UsageError(`--${name} must be between ${bounds.min} and ${bounds.max}, got ${value}`);
  return value;
}

export function choiceValue<T extends string>(values: OptionValues, name: string, choices: readonly T[]): T | undefined {
  const raw = stringValue(values, name);
  if (raw === undefined) return undefined;
  if (!(choices as readonly string[]).includes(raw)) {
    throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}
