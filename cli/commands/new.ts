/**
 * `repairmon new [dir]`, and what it shares with `upgrade`: the `yo repair-service` generator's
 * run without `yo` (its questions asked at a terminal through @yeoman/adapter, as yo asks them),
 * so it also works as root and in scripts. Exit codes are
 * the generator's own (GENERATOR_EXIT, the same under yo): 2 refused and 130 cancelled, both
 * having written nothing; 1 any other failure (a write rolled back).
 */
import type { TerminalAdapter } from '@yeoman/adapter';
import { type Command, type CommandContext, type OptionSpec, UsageError } from '../command.js';
import { ANSWER_FLAGS, RUN_FLAGS, flagDescription, generatorExitCode } from '../../generators/entry.js';
import type { Prompt } from '../../generators/run.js';
import { OUR_PACKAGE_NAME } from '../../lib/index.js';

export async function runGenerator(
  ctx: CommandContext,
  command: string,
  positionals: readonly string[],
  options: Record<string, unknown>,
): Promise<number> {
  let adapter: TerminalAdapter | undefined;
  // Loaded at the first question: most runs ask nothing.
  const prompt: Prompt = async (questions) => {
    const { TerminalAdapter } = await import('@yeoman/adapter');
    // The process's own streams in every real run (tests pass others only where nothing is asked).
    const stdin = ctx.stdin as NodeJS.ReadStream;
    adapter ??= new TerminalAdapter({ stdin, stdout: ctx.stdout as NodeJS.WriteStream, stderr: ctx.stderr as NodeJS.WriteStream });
    // Inquirer's question objects (the generator's questions module does not import the adapter's types).
    return adapter.prompt(questions as Parameters<TerminalAdapter['prompt']>[0]);
  };
  try {
    const { runDirectly } = await import('../../generators/run.js');
    await runDirectly(
      {
        contextRoot: process.cwd(),
        configKey: OUR_PACKAGE_NAME,
        options: { ...options, ...(positionals[0] === undefined ? {} : { dir: positionals[0] }) },
      },
      {
        prompt: options['interactive'] === true ? prompt : undefined,
        log: (text) => ctx.stderr.write(`${text}\n`),
      },
    );
    return 0;
  } catch (error) {
    // A package the generator needs is missing (the monitor image): `main` says so in one line.
    if ((error as { code?: unknown } | null)?.code === 'ERR_MODULE_NOT_FOUND') throw error;
    ctx.stderr.write(`repairmon ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return generatorExitCode(error);
  } finally {
    adapter?.close();
  }
}

/** The one `[dir]` both commands take. */
export function atMostOneDirectory(ctx: CommandContext): void {
  if (ctx.positionals.length > 1)
    throw new UsageError(`expected at most one directory, got ${ctx.positionals.length}: ${ctx.positionals.join(' ')}`);
}

/** node:util parseArgs on Node 20 has no `--no-x`, so each boolean flag gets a `no-` twin (as yo's). */
const NEGATABLE = [...ANSWER_FLAGS.filter((f) => f.type === 'boolean').map((f) => f.flag), 'interactive'];

function buildOptions(): Record<string, OptionSpec> {
  const options: Record<string, OptionSpec> = {};
  for (const spec of ANSWER_FLAGS) {
    options[spec.flag] = { type: spec.type, description: flagDescription(spec), ...(spec.valueName ? { valueName: spec.valueName } : {}) };
  }
  for (const spec of RUN_FLAGS)
    options[spec.flag] = { type: 'boolean', description: spec.description, ...(spec.flag === 'yes' ? { short: 'y' } : {}) };
  for (const flag of NEGATABLE) options[`no-${flag}`] = { type: 'boolean', description: `opposite of --${flag}` };
  return options;
}

/** Options for the generator: kebab-case answer flags, negations folded in, the TTY decided here. */
function generatorOptions(ctx: CommandContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(ctx.values)) {
    if (value === undefined || name === 'help' || name.startsWith('no-')) continue;
    out[name] = value;
  }
  for (const flag of NEGATABLE) {
    if (ctx.values[`no-${flag}`] === true) {
      if (ctx.values[flag] === true) throw new UsageError(`--${flag} and --no-${flag} contradict each other`);
      out[flag] = false;
    }
  }
  const stdout = ctx.stdout as { isTTY?: boolean };
  if (out['interactive'] === undefined) out['interactive'] = Boolean(ctx.stdin.isTTY && stdout.isTTY);
  return out;
}

async function run(ctx: CommandContext): Promise<number> {
  atMostOneDirectory(ctx);
  return runGenerator(ctx, 'new', ctx.positionals, generatorOptions(ctx));
}

const command: Command = {
  name: 'new',
  docs: 'docs/integrators.md',
  positionals: '[dir]',
  options: buildOptions(),
  run,
};

export default command;
