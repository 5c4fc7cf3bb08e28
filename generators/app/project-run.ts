/**
 * One run of the generator without Yeoman: the flags read, the answers completed, the plan made
 * and checked, the changes committed. `generator.ts` (yo) drives it through Yeoman's run loop
 * and asks for missing answers; `run.ts` (`repairmon new` and `upgrade` when nothing needs
 * asking) drives it directly, so a run that asks nothing loads neither yeoman-environment nor
 * yeoman-generator (most of its start-up). Every refusal is thrown before the first write.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { packageRoot } from '../../lib/index.js';
import {
  ANSWER_NAMES,
  type AnswerName,
  type Answers,
  completeAnswers,
  defaultAnswer,
} from './answers.js';
import { inspectDestination } from './destination.js';
import {
  answersFromFlags,
  flagFor,
  missingAnswersMessage,
  readOption,
  unknownFlags,
} from './flags.js';
import { planProject } from './project-plan.js';
import { GeneratorRefusal } from './refusal.js';
import { type FileChange, commitChanges } from './staged-commit.js';
import { nextSteps, planSummary, refusalMessage } from './summary.js';
import { RECORD_KEY, YO_RC, nextYoRc } from './toolkit-record.js';
import { type ReadyPlan, changingActions, planChanges } from './upgrade-plan.js';
import { pathProblemsMessage, pathsInTheWay } from './write-safety.js';

type Raw = Partial<Record<AnswerName, unknown>>;

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

export class ProjectRun {
  #known: Raw = {};
  #answers: Answers | undefined;
  /** Set when the directory is known before the answers: a `dir` argument or a re-run. */
  #target: string | undefined;
  #rerun = false;
  #plan: ReadyPlan | undefined;
  /** Every file the run writes or removes, `.yo-rc.json` last; checked before the commit. */
  #changes: FileChange[] = [];

  constructor(readonly setting: RunSetting) {}

  flag(name: string): boolean {
    return readOption(this.setting.options, name) === true;
  }

  /** yeoman-generator declares `skip-install` with a default of false; a runner may pass `skipInstall` instead (yeoman-test does). */
  skipInstall(): boolean {
    return this.flag('skip-install') || this.setting.options['skipInstall'] === true;
  }

  initialize(): void {
    const { contextRoot, configKey, options } = this.setting;
    // yo hands over every flag it was given; `repairmon new` only those its parser knows.
    const unknown = unknownFlags(options, this.setting.passed ?? []);
    const flags = answersFromFlags(options);
    if (!flags.ok || unknown.length > 0) {
      const problems = [
        ...unknown.map((flag) => `Unknown option '${flag}' (--help lists the flags)`),
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
    const state = inspectDestination(candidate, configKey);
    if (state.kind === 'ours') {
      this.#rerun = true;
      this.#target = candidate;
      this.#known = { ...state.stored, ...flags.given };
    } else {
      // `yo repair-service .` means here; with no argument the project gets its own directory.
      if (dirGiven) this.#target = candidate;
      this.#known = { ...flags.given };
      if (this.#known.name === undefined && this.#target !== undefined)
        this.#known.name = basename(this.#target);
    }
  }

  /** The answers still missing; with `--yes` they take their defaults here and none is left. */
  missingAnswers(): AnswerName[] {
    const missing = ANSWER_NAMES.filter((name) => this.#known[name] === undefined);
    if (missing.length > 0 && this.flag('yes')) {
      for (const name of missing)
        this.#known[name] = defaultAnswer(name, this.#known as Partial<Answers>);
      return [];
    }
    return missing;
  }

  /** The refusal when answers are missing and nobody can be asked. */
  refuseMissing(missing: readonly AnswerName[]): never {
    throw new GeneratorRefusal('missing_answers', missingAnswersMessage(missing));
  }

  /** The default a prompt offers, given the answers so far. */
  defaultFor(name: AnswerName): unknown {
    return defaultAnswer(name, this.#known as Partial<Answers>);
  }

  answer(name: AnswerName, value: unknown): void {
    this.#known[name] = value;
  }

  configure(): void {
    const result = completeAnswers(this.#known);
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
    const target = this.#target ?? resolve(this.setting.contextRoot, result.answers.name);
    if (!this.#rerun) this.#refuseUnsafeDestination(target);
    const plan = this.#makePlan(target, result.answers);
    this.#changes = this.#makeChanges(target, result.answers, plan);
    this.#answers = result.answers;
    this.#target = target;
    this.#plan = plan;
  }

  /** Decided here, before anything is written: a refusal leaves the project as it was. */
  #makePlan(target: string, answers: Answers): ReadyPlan {
    const plan = planProject({
      packageRoot: packageRoot(),
      target,
      answers,
      configKey: this.setting.configKey,
      force: this.flag('force'),
    });
    if (plan.kind === 'refused') {
      // A link out of the project comes first: --force, which the refusal suggests, would not help.
      this.#refuseBlockedPaths(
        target,
        plan.edited.map((f) => f.path),
      );
      throw new GeneratorRefusal(
        'toolkit_files_edited',
        refusalMessage(plan, this.#rerun ? 'repairmon upgrade' : 'repairmon new'),
      );
    }
    const changing = changingActions(plan);
    if (this.flag('bail') && changing.length > 0) {
      throw new GeneratorRefusal(
        'would_change',
        `--bail: this run would change ${changing.length} file(s), nothing was written:\n  ${changing.map((a) => `${a.kind} ${a.path}`).join('\n  ')}`,
      );
    }
    return plan;
  }

  /** The plan's files and `.yo-rc.json` (last, so it only ever describes a whole project), all checked. */
  #makeChanges(target: string, answers: Answers, plan: ReadyPlan): FileChange[] {
    const changes = planChanges(plan);
    this.#refuseBlockedPaths(target, [...changes.map((c) => c.path), YO_RC]);
    const rcPath = join(target, YO_RC);
    const current = existsSync(rcPath) ? readFileSync(rcPath) : undefined;
    // Answers and the toolkit's version and file hashes; keys are read from the environment, never stored.
    const rc = nextYoRc(current?.toString('utf8'), this.setting.configKey, {
      ...answers,
      [RECORD_KEY]: plan.record,
    });
    if (!rc.ok) throw new GeneratorRefusal('config_unreadable', rc.reason);
    const text = Buffer.from(rc.text, 'utf8');
    if (!current?.equals(text)) changes.push({ path: YO_RC, contents: text });
    return changes;
  }

  #refuseBlockedPaths(target: string, paths: readonly string[]): void {
    const problems = pathsInTheWay(target, paths);
    if (problems.length > 0)
      throw new GeneratorRefusal('path_in_the_way', pathProblemsMessage(problems));
  }

  #refuseUnsafeDestination(target: string): void {
    const state = inspectDestination(target, this.setting.configKey);
    if (state.kind === 'not_a_directory')
      throw new GeneratorRefusal(
        'not_a_directory',
        `${target} exists and is not a directory; nothing was written.`,
      );
    if (state.kind === 'not_empty' && !this.flag('force')) {
      throw new GeneratorRefusal(
        'directory_not_empty',
        `${target} is not empty (${state.entries} entries) and was not generated by repair-service; nothing was written. ` +
          'Choose another directory (or --name), or pass --force to write into it (files already there are kept; a package.json is merged).',
      );
    }
  }

  /** Every change in place, all or nothing; the project's directory, or undefined when the run planned nothing. */
  commit(): string | undefined {
    if (this.#target === undefined || this.#plan === undefined) return undefined;
    commitChanges(this.#target, this.#changes);
    return this.#target;
  }

  /** Where `npm install` runs: package.json changed and the install was not skipped. */
  installDir(): string | undefined {
    if (this.skipInstall() || !this.#changes.some((c) => c.path === 'package.json'))
      return undefined;
    return this.#target;
  }

  /** What the run says last: the upgrade's summary or a new project's next steps. */
  closingWords(): string | undefined {
    const answers = this.#answers;
    const plan = this.#plan;
    if (!answers || !plan || this.#target === undefined) return undefined;
    if (this.#rerun) return `\n${planSummary(plan, this.skipInstall())}\n`;
    const where = relative(this.setting.contextRoot, this.#target) || '.';
    return nextSteps(answers, where, this.skipInstall());
  }
}
