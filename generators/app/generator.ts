/**
 * `yo repair-service [dir]`, `repairmon new [dir]` and `repairmon upgrade [dir]`: scaffolds an
 * integration project for API v1, or brings one up to this version. Every prompt has a flag
 * twin (flags.ts); answers are checked as pure functions (answers.ts); what happens to each
 * file is a pure plan (upgrade-plan.ts) made, and every path it touches checked
 * (write-safety.ts), before anything is written, so a refused run writes nothing.
 *
 * The boundary with Yeoman is two of its public generator features. `customCommitTask`: the
 * environment's commit step puts the plan's files in place all or nothing (staged-commit.ts,
 * `.yo-rc.json` last) instead of committing its in-memory fs file by file (which also asks
 * before overwriting: a run needs no terminal); nothing is written to that fs. And
 * `customInstallTask`: the environment's install step (which watches that fs) is off, and
 * the `install` task below runs npm when package.json changed, unless `--skip-install`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import Generator from 'yeoman-generator';
import { packageRoot } from '../../lib/index.js';
import {
  ANSWER_NAMES,
  type AnswerName,
  type Answers,
  checkAnswer,
  completeAnswers,
  defaultAnswer,
  isBooleanAnswer,
} from './answers.js';
import { inspectDestination } from './destination.js';
import { recoverInterrupted, recoveryMessage } from './interrupted-commit.js';
import {
  ANSWER_FLAGS,
  RUN_FLAGS,
  answersFromFlags,
  flagFor,
  missingAnswersMessage,
  readOption,
} from './flags.js';
import { planProject } from './project-plan.js';
import { GeneratorRefusal, isGeneratorRefusal } from './refusal.js';
import { type FileChange, commitChanges } from './staged-commit.js';
import { nextSteps, planSummary, refusalMessage } from './summary.js';
import { RECORD_KEY, YO_RC, nextYoRc } from './toolkit-record.js';
import { type ReadyPlan, changingActions, planChanges } from './upgrade-plan.js';
import { pathProblemsMessage, pathsInTheWay } from './write-safety.js';

type Raw = Partial<Record<AnswerName, unknown>>;

export default class RepairServiceGenerator extends Generator {
  #known: Raw = {};
  #answers: Answers | undefined;
  /** Set when the directory is known before the answers: a `dir` argument or a re-run. */
  #target: string | undefined;
  #rerun = false;
  #plan: ReadyPlan | undefined;
  /** Every file the run writes or removes, `.yo-rc.json` last; checked before the commit. */
  #changes: FileChange[] = [];
  /** Why the run stops; thrown by the commit step (see #refusing). */
  #refused: GeneratorRefusal | undefined;

  constructor(args: string[], options: Record<string, unknown>) {
    super(args, options as never);
    this.argument('dir', {
      type: String,
      required: false,
      description: 'Directory to create (default: the project name)',
    });
    for (const spec of ANSWER_FLAGS) {
      this.option(spec.flag, {
        type: spec.type === 'boolean' ? Boolean : String,
        description: spec.message,
      });
    }
    for (const spec of RUN_FLAGS) {
      if (spec.flag === 'skip-install') continue; // yeoman-generator declares it
      this.option(spec.flag, {
        type: Boolean,
        description: spec.description,
        ...(spec.flag === 'yes' ? { alias: 'y' } : {}),
      });
    }
    this.setFeatures({ customCommitTask: () => this.#commit(), customInstallTask: true });
  }

  /** Yeoman names the app after the package.json of where it runs; ours is named by the answers, and that file may be anything (a refusal of ours names it). */
  override determineAppname(): string {
    return basename(this.destinationRoot());
  }

  get #opts(): Record<string, unknown> {
    return this.options;
  }

  #flag(name: string): boolean {
    return readOption(this.#opts, name) === true;
  }

  /** yeoman-generator declares `skip-install` with a default of false; a runner may pass `skipInstall` instead (yeoman-test does). */
  #skipInstall(): boolean {
    return this.#flag('skip-install') || this.#opts['skipInstall'] === true;
  }

  #interactive(): boolean {
    const explicit = readOption(this.#opts, 'interactive');
    if (typeof explicit === 'boolean') return explicit;
    return Boolean(process.stdin.isTTY && process.stdout.isTTY);
  }

  #configKey(): string {
    return this.rootGeneratorName();
  }

  /**
   * A refusal says what is wrong and what to pass. Thrown from a task, yeoman-generator would
   * log "An error occured while running <task>" before it, which reads like a crash; so the
   * task cancels the rest of ours and the commit step, the environment's, throws it instead.
   * Any other error is unexpected and keeps that line.
   */
  async #refusing(step: () => void | Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      if (!isGeneratorRefusal(error)) throw error;
      this.#refused = error;
      this.cancelCancellableTasks();
    }
  }

  initializing(): Promise<void> {
    return this.#refusing(() => this.#initialize());
  }

  prompting(): Promise<void> {
    return this.#refusing(() => this.#prompt());
  }

  configuring(): Promise<void> {
    return this.#refusing(() => this.#configure());
  }

  #initialize(): void {
    const flags = answersFromFlags(this.#opts);
    if (!flags.ok)
      throw new GeneratorRefusal(
        'invalid_flag',
        `Invalid flags, nothing was written:\n  ${flags.problems.join('\n  ')}`,
      );
    const dir = readOption(this.#opts, 'dir');
    const dirGiven = typeof dir === 'string' && dir !== '';
    const candidate = dirGiven ? resolve(this.contextRoot, dir) : this.contextRoot;
    // Before anything is read: a run killed mid-commit left files half-replaced.
    for (const recovery of recoverInterrupted(candidate)) this.log(recoveryMessage(recovery));
    const state = inspectDestination(candidate, this.#configKey());
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

  async #prompt(): Promise<void> {
    const missing = ANSWER_NAMES.filter((name) => this.#known[name] === undefined);
    if (missing.length === 0) return;
    if (this.#flag('yes')) {
      for (const name of missing)
        this.#known[name] = defaultAnswer(name, this.#known as Partial<Answers>);
      return;
    }
    if (!this.#interactive())
      throw new GeneratorRefusal('missing_answers', missingAnswersMessage(missing));
    for (const name of missing) this.#known[name] = await this.#ask(name);
  }

  async #ask(name: AnswerName): Promise<unknown> {
    const spec = flagFor(name);
    const fallback = defaultAnswer(name, this.#known as Partial<Answers>);
    const validate = (value: unknown): true | string => {
      const check = checkAnswer(name, typeof value === 'string' ? value.trim() : value);
      return check.ok ? true : `${spec.message} ${check.reason}`;
    };
    const question = isBooleanAnswer(name)
      ? { type: 'confirm' as const, name, message: spec.message, default: fallback }
      : name === 'authScheme'
        ? {
            type: 'select' as const,
            name,
            message: spec.message,
            choices: ['bearer', 'x-api-key'],
            default: fallback,
          }
        : { type: 'input' as const, name, message: spec.message, default: fallback, validate };
    const reply = await this.prompt<Record<string, unknown>>([question as never]);
    const value = reply[name];
    return typeof value === 'string' ? value.trim() : value;
  }

  #configure(): void {
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
    const target = this.#target ?? resolve(this.contextRoot, result.answers.name);
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
      configKey: this.#configKey(),
      force: this.#flag('force'),
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
    if (this.#flag('bail') && changing.length > 0) {
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
    const rc = nextYoRc(current?.toString('utf8'), this.#configKey(), {
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
    const state = inspectDestination(target, this.#configKey());
    if (state.kind === 'not_a_directory')
      throw new GeneratorRefusal(
        'not_a_directory',
        `${target} exists and is not a directory; nothing was written.`,
      );
    if (state.kind === 'not_empty' && !this.#flag('force')) {
      throw new GeneratorRefusal(
        'directory_not_empty',
        `${target} is not empty (${state.entries} entries) and was not generated by repair-service; nothing was written. ` +
          'Choose another directory (or --name), or pass --force to write into it (files already there are kept; a package.json is merged).',
      );
    }
  }

  /** The environment's commit step (`customCommitTask`): the refusal, or every change in place, all or nothing. */
  #commit(): void {
    if (this.#refused) throw this.#refused;
    if (this.#target === undefined || this.#plan === undefined) return;
    commitChanges(this.#target, this.#changes);
    this.destinationRoot(this.#target);
  }

  /** The environment's own install step is off (`customInstallTask`); this one knows the package manager. */
  async install(): Promise<void> {
    if (
      this.#target === undefined ||
      this.#skipInstall() ||
      !this.#changes.some((c) => c.path === 'package.json')
    )
      return;
    this.log(`\npackage.json changed: running npm install in ${this.#target}`);
    await this.spawn('npm', ['install'], { cwd: this.#target, stdio: 'inherit' });
  }

  end(): void {
    const answers = this.#answers;
    const plan = this.#plan;
    if (!answers || !plan) return;
    if (this.#rerun) {
      this.log(`\n${planSummary(plan, this.#skipInstall())}\n`);
      return;
    }
    this.log(
      nextSteps(
        answers,
        relative(this.contextRoot, this.destinationRoot()) || '.',
        this.#skipInstall(),
      ),
    );
  }
}
