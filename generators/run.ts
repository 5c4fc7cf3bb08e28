/**
 * The second entry: one run of the generator without Yeoman, in two halves. `startRun` and
 * `planRun` read the flags and the destination, complete the answers, make the plan and check
 * every path: each refusal is thrown there, before the first write. `finishRun` puts the changes
 * in place, runs npm install and says the summary or the next steps. `app/generator.ts` (yo)
 * runs the halves in Yeoman's run loop, asking at its prompts; `repairmon new` and `upgrade`
 * call `runDirectly` and ask at a terminal through @yeoman/adapter, so they load neither
 * yeoman-environment (not a dependency: `yo` brings its own) nor yeoman-generator. The CLI
 * imports this only when one of those commands runs.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { packageRoot } from '../lib/index.js';
import {
  ANSWER_NAMES,
  type AnswerName,
  type Answers,
  checkAnswer,
  completeAnswers,
  defaultAnswer,
  isBooleanAnswer,
  storedForm,
} from './app/answers.js';
import { inspectDestination } from './app/destination.js';
import { recoverInterrupted, recoveryMessage } from './app/interrupted-commit.js';
import {
  answersFromFlags,
  flagFor,
  missingAnswersMessage,
  readOption,
  unknownFlags,
} from './app/flags.js';
import { planProject } from './app/project-plan.js';
import { type Prompt, ask } from './app/questions.js';
import { GeneratorRefusal } from './app/refusal.js';
import { type FileChange, commitChanges } from './app/staged-commit.js';
import { nextSteps, planSummary, refusalMessage } from './app/summary.js';
import { RECORD_KEY, YO_RC, nextYoRc } from './app/toolkit-record.js';
import { type ReadyPlan, changingActions, planChanges } from './app/upgrade-plan.js';
import { pathProblemsMessage, pathsInTheWay } from './app/write-safety.js';

export type { Prompt } from './app/questions.js';

export interface RunSetting {
  /** Where the run was started (Yeoman's `contextRoot`). */
  readonly contextRoot: string;
  /** The `.yo-rc.json` section: our package's name. */
  readonly configKey: string;
  /** Flags and the `dir` argument, kebab-case or camelCase. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Keys the runner itself adds to `options` (Yeoman's environment), not flags a user typed. */
  readonly passed?: readonly string[];
}

export interface RunStart {
  readonly setting: RunSetting;
  /** Set when the directory is known before the answers: a `dir` argument or a re-run. */
  readonly target: string | undefined;
  readonly rerun: boolean;
  /** Stored, given as flags, defaulted with `--yes`; a prompt adds what it asks. */
  readonly known: Partial<Record<AnswerName, unknown>>;
  /** The answers still missing, in prompt order. */
  readonly missing: readonly AnswerName[];
}

/** Planned and checked, nothing written yet. */
export interface PlannedRun {
  readonly setting: RunSetting;
  readonly target: string;
  readonly rerun: boolean;
  readonly answers: Answers;
  readonly plan: ReadyPlan;
  /** Every file the run writes or removes, `.yo-rc.json` last. */
  readonly changes: readonly FileChange[];
}

type Log = (text: string) => void;

const flag = (setting: RunSetting, name: string): boolean =>
  readOption(setting.options, name) === true;

/** yeoman-generator declares `skip-install`; a runner may pass `skipInstall` instead (yeoman-test does). */
const skipInstall = (setting: RunSetting): boolean =>
  flag(setting, 'skip-install') || setting.options['skipInstall'] === true;

/** The flags and the destination read (a rolled-back interrupted run said first); with `--yes` nothing is missing. */
export function startRun(setting: RunSetting, log: Log): RunStart {
  const { contextRoot, configKey, options } = setting;
  // yo hands over every flag it was given; `repairmon new` only those its parser knows.
  const unknown = unknownFlags(options, setting.passed ?? []);
  const flags = answersFromFlags(options);
  if (!flags.ok || unknown.length > 0) {
    const problems = [
      ...unknown.map((name) => `Unknown option '${name}' (--help lists the flags)`),
      ...(flags.ok ? [] : flags.problems),
    ];
    throw new GeneratorRefusal(
      'invalid_flag',
      `Invalid flags, nothing was written:\n  ${problems.join('\n  ')}`,
    );
  }
  const dir = readOption(options, 'dir');
  const dirGiven = typeof dir === 'string' && dir !== '';
  const candidate = dirGiven ? resolve(contextRoot, dir) : contextRoot;
  // Before anything is read: a run killed mid-commit left files half-replaced.
  for (const recovery of recoverInterrupted(candidate)) log(recoveryMessage(recovery));
  const state = inspectDestination(candidate, configKey);
  const rerun = state.kind === 'ours';
  // `yo repair-service .` means here; with no argument a new project gets its own directory.
  const target = rerun || dirGiven ? candidate : undefined;
  if (state.kind === 'ours') refuseChangedAnswers(state.stored, flags.given);
  const known = { ...(state.kind === 'ours' ? state.stored : {}), ...flags.given };
  if (!rerun && known.name === undefined && target !== undefined) known.name = basename(target);
  // `repairmon new @acme/repairs`, as `npm create` reads it: the folder as given, the scope kept
  // in the package name (it was dropped, the package named after the last folder alone).
  // Only a name npm takes as it is; `@Acme/Repairs` keeps the old default (`repairs`).
  const scoped = dirGiven ? dir.replace(/[/\\]+$/, '') : '';
  if (!rerun && known.packageName === undefined && /^@[^/\\]+\/[^/\\]+$/.test(scoped))
    if (checkAnswer('packageName', scoped).ok) known.packageName = scoped;
  const missing = ANSWER_NAMES.filter((name) => known[name] === undefined);
  if (missing.length === 0 || !flag(setting, 'yes'))
    return { setting, target, rerun, known, missing };
  for (const name of missing) known[name] = defaultAnswer(name, known);
  return { setting, target, rerun, known, missing: [] };
}

/**
 * A re-run keeps every file that is the integrator's (src/config.ts, .env.example, README.md),
 * and those hold the text answers (tenant, base URLs, names): a new value would reach
 * `.yo-rc.json` only, and the project would disagree with itself. Yes/no answers add or drop
 * toolkit files, which a re-run does replace, so they may change.
 */
function refuseChangedAnswers(
  stored: Partial<Record<AnswerName, unknown>>,
  given: Partial<Record<AnswerName, unknown>>,
): void {
  const changed = ANSWER_NAMES.filter(
    (name) =>
      !isBooleanAnswer(name) &&
      given[name] !== undefined &&
      stored[name] !== undefined &&
      storedForm(name, stored[name]) !== storedForm(name, given[name]),
  );
  if (changed.length === 0) return;
  const lines = changed.map(
    (name) =>
      `--${flagFor(name).flag} ${JSON.stringify(given[name])}: this project has ${JSON.stringify(stored[name])}`,
  );
  throw new GeneratorRefusal(
    'answer_changed',
    `This project was generated with other answers; nothing was written:\n  ${lines.join('\n  ')}\n` +
      'A re-run keeps your files (src/config.ts, .env.example, README.md), so they would keep the old ' +
      'value. Change it there (or in .env), or generate a new project.',
  );
}

/** The missing answers asked in prompt order, or refused when nobody can be asked (no prompt). */
export async function askMissing(start: RunStart, prompt: Prompt | undefined): Promise<void> {
  if (start.missing.length === 0) return;
  if (prompt === undefined)
    throw new GeneratorRefusal('missing_answers', missingAnswersMessage(start.missing));
  for (const name of start.missing)
    start.known[name] = await ask(prompt, name, defaultAnswer(name, start.known));
}

function refuseBlockedPaths(target: string, paths: readonly string[]): void {
  const problems = pathsInTheWay(target, paths);
  if (problems.length > 0)
    throw new GeneratorRefusal('path_in_the_way', pathProblemsMessage(problems));
}

function refuseUnsafeDestination(setting: RunSetting, target: string): void {
  const state = inspectDestination(target, setting.configKey);
  if (state.kind === 'not_a_directory')
    throw new GeneratorRefusal(
      'not_a_directory',
      `${target} exists and is not a directory; nothing was written.`,
    );
  if (state.kind === 'not_empty' && !flag(setting, 'force'))
    throw new GeneratorRefusal(
      'directory_not_empty',
      `${target} is not empty (${state.entries} entries) and was not generated by repair-service; nothing was written. ` +
        'Choose another directory (or --name), or pass --force to write into it (files already there are kept; a package.json is merged).',
    );
}

/** The plan, decided before anything is written: a refusal leaves the project as it was. */
function makePlan(start: RunStart, target: string, answers: Answers): ReadyPlan {
  const { setting } = start;
  const force = flag(setting, 'force');
  const plan = planProject({
    packageRoot: packageRoot(),
    target,
    answers,
    configKey: setting.configKey,
    force,
  });
  if (plan.kind === 'refused') {
    // A link out of the project comes first: --force, which the refusal suggests, would not help.
    refuseBlockedPaths(
      target,
      plan.edited.map((f) => f.path),
    );
    throw new GeneratorRefusal(
      'toolkit_files_edited',
      refusalMessage(plan, start.rerun ? 'repairmon upgrade' : 'repairmon new'),
    );
  }
  const changing = changingActions(plan);
  if (flag(setting, 'bail') && changing.length > 0)
    throw new GeneratorRefusal(
      'would_change',
      `--bail: this run would change ${changing.length} file(s), nothing was written:\n  ${changing.map((a) => `${a.kind} ${a.path}`).join('\n  ')}`,
    );
  return plan;
}

/** The plan's files and `.yo-rc.json` (last, so it only ever describes a whole project), all checked. */
function makeChanges(
  setting: RunSetting,
  target: string,
  answers: Answers,
  plan: ReadyPlan,
): FileChange[] {
  const changes = planChanges(plan);
  refuseBlockedPaths(target, [...changes.map((c) => c.path), YO_RC]);
  const rcPath = join(target, YO_RC);
  const current = existsSync(rcPath) ? readFileSync(rcPath) : undefined;
  // Answers and the toolkit's version and file hashes; keys are read from the environment, never stored.
  const rc = nextYoRc(current?.toString('utf8'), setting.configKey, {
    ...answers,
    [RECORD_KEY]: plan.record,
  });
  if (!rc.ok) throw new GeneratorRefusal('config_unreadable', rc.reason);
  const text = Buffer.from(rc.text, 'utf8');
  if (!current?.equals(text)) changes.push({ path: YO_RC, contents: text });
  return changes;
}

/** The answers checked, the plan made and every path it touches checked. */
export function planRun(start: RunStart): PlannedRun {
  const result = completeAnswers(start.known);
  if (!result.ok) {
    const lines = result.problems.map(
      (p) =>
        `${flagFor(p.name).message} (--${flagFor(p.name).flag}) ${p.reason}, got ${JSON.stringify(p.value)}`,
    );
    if (result.missing.length > 0)
      lines.push(`missing: ${result.missing.map((n) => `--${flagFor(n).flag}`).join(', ')}`);
    throw new GeneratorRefusal(
      'invalid_answer',
      `Invalid answers, nothing was written:\n  ${lines.join('\n  ')}`,
    );
  }
  const { setting, rerun } = start;
  const { answers } = result;
  const target = start.target ?? resolve(setting.contextRoot, answers.name);
  if (!rerun) refuseUnsafeDestination(setting, target);
  const plan = makePlan(start, target, answers);
  return {
    setting,
    target,
    rerun,
    answers,
    plan,
    changes: makeChanges(setting, target, answers, plan),
  };
}

/** npm install in the new project, its output on our terminal. */
function npmInstall(cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['install'], { cwd, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`npm install in ${cwd} failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/** Every change in place, all or nothing; npm install when package.json changed (unless skipped); the closing words. */
export async function finishRun(run: PlannedRun, log: Log): Promise<void> {
  commitChanges(run.target, run.changes);
  const skipped = skipInstall(run.setting);
  if (!skipped && run.changes.some((c) => c.path === 'package.json')) {
    log(`\npackage.json changed: running npm install in ${run.target}`);
    await npmInstall(run.target);
  }
  const where = relative(run.setting.contextRoot, run.target) || '.';
  log(run.rerun ? `\n${planSummary(run.plan, skipped)}\n` : nextSteps(run.answers, where, skipped));
}

/** The run, the missing answers asked first (refused when nobody can be asked). */
export async function runDirectly(
  setting: RunSetting,
  io: { readonly prompt: Prompt | undefined; readonly log: Log },
): Promise<void> {
  const start = startRun(setting, io.log);
  await askMissing(start, io.prompt);
  await finishRun(planRun(start), io.log);
}
