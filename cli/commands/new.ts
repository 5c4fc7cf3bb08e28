/**
 * `repairmon new [dir]`, and what it shares with `upgrade`: the `yo repair-service` generator run
 * through yeoman-environment (no `yo`), so it also works as root and in scripts. Exit codes are
 * the generator's own (GENERATOR_EXIT, the same under yo): 2 refused and 130 cancelled, both
 * having written nothing; 1 any other failure (a write rolled back).
 */
import { join } from 'node:path';
import { type Command, type CommandContext, type OptionSpec, UsageError } from '../command.js';
import { ANSWER_FLAGS, RUN_FLAGS, flagDescription, generatorExitCode } from '../../generators/entry.js';
import { OUR_PACKAGE_NAME, packageRoot } from '../../lib/index.js';

const NAMESPACE = 'repair-service:app';

export async function runGenerator(
  ctx: CommandContext,
  command: string,
  positionals: readonly string[],
  options: Record<string, unknown>,
): Promise<number> {
  try {
    // Most runs ask nothing: they skip Yeoman's start-up (about two thirds of `repairmon new`).
    const { runDirectly } = await import('../../generators/run.js');
    const direct = await runDirectly(
      {
        contextRoot: process.cwd(),
        configKey: OUR_PACKAGE_NAME,
        options: { ...options, ...(positionals[0] === undefined ? {} : { dir: positionals[0] }) },
      },
      { interactive: options['interactive'] === true, log: (text) => ctx.stderr.write(`${text}\n`) },
    );
    if (direct.kind === 'done') return 0;
    const { createEnv } = await import('yeoman-environment');
    // Force, bail and the install are the generator's own options (its plan, its commit step).
    const env = createEnv({ cwd: process.cwd(), stdin: ctx.stdin, stdout: ctx.stdout, stderr: ctx.stderr } as never);
    env.register(join(packageRoot(), 'generators', 'app', 'index.js'), { namespace: NAMESPACE });
    await env.run([NAMESPACE, ...positionals], options);
    return 0;
  } catch (error) {
    // A package the generator needs is missing (the monitor image): `main` says so in one line.
    if ((error as { code?: unknown } | null)?.code === 'ERR_MODULE_NOT_FOUND') throw error;
    ctx.stderr.write(`repairmon ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return generatorExitCode(error);
  }
}

/** The one `[dir]` both commands take. */
export function atMostOneDirectory(ctx: CommandContext): void {
  if (ctx.positionals.length > 1)
    throw new UsageError(`expected at most one directory, got ${ctx.positionals.length}: ${ctx.positionals.join(' ')}`);
}

/** node:util parseArgs on Node 20 has no `--no-x`, so each negatable flag gets a `no-` twin. */
const NEGATABLE = ['github-actions', 'interactive'] as const;

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
