/**
 * Every prompt's command-line twin, written once and used by both the yeoman generator's
 * options and `repairmon new`'s strict flag parser, so the two cannot drift.
 */
import { helpRows } from '../../lib/index.js';
import { ANSWER_NAMES, type AnswerName, type Answers, answerSpec, checkAnswer } from './answers.js';

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export interface AnswerFlag {
  readonly answer: AnswerName;
  /** Kebab-case flag name without dashes. */
  readonly flag: string;
  readonly type: 'string' | 'boolean';
  readonly valueName?: string;
  /** Prompt text, also the flag's help line. */
  readonly message: string;
}

export const ANSWER_FLAGS: readonly AnswerFlag[] = ANSWER_NAMES.map((answer) => {
  const { message, valueName } = answerSpec(answer);
  const type = valueName === undefined ? 'boolean' : 'string';
  return { answer, flag: kebab(answer), type, message, ...(valueName ? { valueName } : {}) };
});

/** Flags that steer the run rather than answer a prompt. */
export interface RunFlag {
  readonly flag: string;
  readonly description: string;
}

export const RUN_FLAGS: readonly RunFlag[] = [
  { flag: 'yes', description: 'take the default for every answer not given' },
  {
    flag: 'force',
    description:
      'write into a non-empty directory; in a generated project, also replace toolkit files you edited (your version kept as <file>.orig)',
  },
  {
    flag: 'bail',
    description:
      'refuse, writing nothing, if the run would change any file (proves a re-run changes nothing)',
  },
  { flag: 'skip-install', description: 'do not run npm install after writing' },
  {
    flag: 'interactive',
    description:
      'ask for missing answers (default: when stdin and stdout are terminals; --no-interactive never asks)',
  },
];

/**
 * Options a runner passes that are not ours to refuse: yeoman-generator's own flags and yo's
 * general options (`yo --help` lists them; `insight` is yo's older `--no-insight`).
 */
const RUNNER_FLAGS = [
  ...['help', 'h', 'skip-cache', 'skip-install', 'force-install', 'ask-answered'],
  ...['version', 'color', 'generators', 'local-only', 'insight', 'environment-version', 'debug'],
];

/**
 * The flags in an options bag that are not the generator's, as `--name`: the one check of
 * unknown flags, whether yo (camelCase and kebab-case twins), yeoman-test or `repairmon new`
 * filled the bag. `passed` are keys the environment adds itself (its shared options).
 */
export function unknownFlags(
  options: Readonly<Record<string, unknown>>,
  passed: Iterable<string>,
): string[] {
  const known = new Set([
    ...ANSWER_FLAGS.map((f) => f.flag),
    ...RUN_FLAGS.map((f) => f.flag),
    ...['dir', 'y', '_'],
    ...RUNNER_FLAGS,
    ...[...passed].map(kebab),
  ]);
  const unknown = Object.keys(options)
    .map(kebab)
    .filter((name) => !known.has(name) && !name.startsWith('-'));
  return [...new Set(unknown)].map((name) => `--${name}`);
}

/** A prompt's text as a flag's help line: lower-case first, as every `--help` writes them. */
export function flagDescription(spec: AnswerFlag): string {
  return spec.message.charAt(0).toLowerCase() + spec.message.slice(1);
}

/**
 * `yo repair-service --help`: yeoman-generator's own help pads every line to its longest
 * description (179 columns here); this one wraps each description under its column, within
 * 100 columns, as `repairmon new --help` does.
 */
export function generatorHelp(): string {
  const rows: Array<readonly [string, string]> = [
    ...ANSWER_FLAGS.map((f) => [flagUsage(f), flagDescription(f)] as const),
    ...RUN_FLAGS.map(
      (f) => [`--${f.flag}${f.flag === 'yes' ? ', -y' : ''}`, f.description] as const,
    ),
    ['--help, -h', 'show this help'],
  ];
  const lines = helpRows(rows, 32);
  return [
    'Usage: yo repair-service [dir] [flags]   (or: repairmon new [dir] [flags], also as root)',
    '',
    'scaffold an integration project for the Repair-Service API v1; every prompt has a flag',
    '',
    'Flags:',
    ...lines,
    '',
    'Exit: 0 done, 2 refused (a bad flag or answer; nothing written), 130 cancelled (nothing',
    'written), 1 a write failed (rolled back). Details: docs/integrators.md',
    '',
  ].join('\n');
}

export const flagFor = (answer: AnswerName): AnswerFlag =>
  ANSWER_FLAGS[ANSWER_NAMES.indexOf(answer)]!;

/** `--tenant SLUG`, or `--github-actions / --no-github-actions` for booleans. */
export function flagUsage(spec: AnswerFlag): string {
  return spec.type === 'boolean'
    ? `--${spec.flag} | --no-${spec.flag}`
    : `--${spec.flag} ${spec.valueName ?? 'VALUE'}`;
}

function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Reads a flag from an options bag filled by yo (camelCase), yeoman's own parser (kebab-case)
 * or `repairmon new` (kebab-case).
 */
export function readOption(options: Readonly<Record<string, unknown>>, flag: string): unknown {
  const kebab = options[flag];
  return kebab !== undefined && kebab !== '' ? kebab : options[camel(flag)];
}

export type FlagAnswers =
  | { readonly ok: true; readonly given: Partial<Answers> }
  | { readonly ok: false; readonly problems: readonly string[] };

function coerce(spec: AnswerFlag, raw: unknown): unknown {
  if (spec.type === 'boolean' && typeof raw === 'string') {
    if (raw === 'true') return true;
    if (raw === 'false') return false;
  }
  return raw;
}

/** The answers given as flags, each checked; every bad flag is named with its value. */
export function answersFromFlags(options: Readonly<Record<string, unknown>>): FlagAnswers {
  const given: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const spec of ANSWER_FLAGS) {
    const raw = readOption(options, spec.flag);
    if (raw === undefined || raw === null) continue;
    const value = coerce(spec, raw);
    const check = checkAnswer(spec.answer, value);
    if (check.ok) given[spec.answer] = value;
    else problems.push(`--${spec.flag} ${check.reason}, got ${JSON.stringify(value)}`);
  }
  return problems.length === 0 ? { ok: true, given: given } : { ok: false, problems };
}

/** The one message a non-interactive run with missing answers fails with. */
export function missingAnswersMessage(missing: readonly AnswerName[]): string {
  const lines = missing.map((name) => {
    const spec = flagFor(name);
    return `  ${flagUsage(spec).padEnd(48)} ${spec.message}`;
  });
  return [
    'No terminal to ask on, and these answers are missing. Pass them as flags (or --yes to take the defaults):',
    ...lines,
  ].join('\n');
}
