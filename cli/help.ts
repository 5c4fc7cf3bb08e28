/**
 * `repairmon <command> --help`: usage, summary, one row per flag, and the docs page with the
 * rest. Every line fits 100 columns (descriptions wrap under their column), so a help reads in
 * a terminal of any width; `test/cli/help.test.ts` holds every command to that and ~40 lines.
 */
import { helpRows, wrap } from '../lib/index.js';
import { COMMON_OPTIONS, type Command, type OptionSpec } from './command.js';

export const HELP_WIDTH = 100;

function flagRow(name: string, spec: OptionSpec): readonly [string, string] {
  const flag = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : ''}`;
  const extra = spec.default !== undefined && spec.default !== false ? ` (default: ${String(spec.default)})` : '';
  return [flag, `${spec.description}${extra}${spec.multiple ? ' (repeatable)' : ''}`];
}

/** A paragraph wraps flush; an indented line (a list's item) keeps its indent, and goes on four deeper. */
function summaryLine(line: string): string[] {
  const lead = /^ */.exec(line)?.[0] ?? '';
  if (lead === '') return wrap(line, HELP_WIDTH);
  return wrap(line.slice(lead.length), HELP_WIDTH - lead.length, '    ').map((l) => `${lead}${l}`);
}

export function commandHelp(command: Command): string {
  const options = { ...command.options, ...COMMON_OPTIONS };
  const subs = (command.subcommands ?? []).map(
    (sub) => `  repairmon ${sub.name} ${sub.positionals ?? ''} [flags]: ${sub.summary?.split('\n')[0] ?? ''}`,
  );
  return [
    `Usage: repairmon ${command.name}${command.positionals ? ` ${command.positionals}` : ''} [flags]`,
    '',
    ...(command.summary ?? '').split('\n').flatMap(summaryLine),
    '',
    'Flags:',
    ...helpRows(
      Object.entries(options).map(([name, spec]) => flagRow(name, spec)),
      30,
      HELP_WIDTH,
    ),
    ...(subs.length > 0 ? ['', 'Subcommands (each with its own --help):', ...subs.flatMap(summaryLine)] : []),
    ...(command.docs ? ['', `Details: ${command.docs} (in the package)`] : []),
    '',
  ].join('\n');
}
