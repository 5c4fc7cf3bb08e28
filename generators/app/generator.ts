/**
 * `yo repair-service [dir]`, `repairmon new [dir]` and `repairmon upgrade [dir]`: scaffolds an
 * integration project for API v1, or brings one up to this version. Every prompt has a flag
 * twin (flags.ts); answers are checked as pure functions (answers.ts); what happens to each
 * file is a pure plan (upgrade-plan.ts) made, and every path it touches checked
 * (write-safety.ts), before the writing phase, so a refused run writes nothing. The files are
 * then put in place all or nothing (staged-commit.ts), `.yo-rc.json` last, bypassing yeoman's
 * in-memory fs: yeoman never asks, so a run needs no terminal, and a failure leaves the
 * project as it was.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import Generator from 'yeoman-generator';
import { ANSWER_NAMES, type AnswerName, type Answers, checkAnswer, completeAnswers, defaultAnswer } from './answers.js';
import { planChanges } from './apply-plan.js';
import { inspectDestination } from './destination.js';
import { ANSWER_FLAGS, RUN_FLAGS, answersFromFlags, flagFor, missingAnswersMessage, readOption } from './flags.js';
import { packageRoot } from './paths.js';
import { planProject } from './project-plan.js';
import { GeneratorRefusal } from './refusal.js';
import { CommitError, type FileChange, commitChanges } from './staged-commit.js';
import { nextSteps, planSummary, refusalMessage } from './summary.js';
import { RECORD_KEY } from './toolkit-record.js';
import { type UpgradePlan, changingActions } from './upgrade-plan.js';
import { pathProblemsMessage, pathsInTheWay } from './write-safety.js';
import { YO_RC, nextYoRc } from './yo-rc.js';

type ReadyPlan = Extract<UpgradePlan, { kind: 'ready' }>;

type Raw = Partial<Record<AnswerName, unknown>>;

export default class RepairServiceGenerator extends Generator {
  #known: Raw = {};
  #answers: Answers | undefined;
  /** Set when the directory is known before the answers: a `dir` argument or a re-run. */
  #target: string | undefined;
  #rerun = false;
  #plan: ReadyPlan | undefined;
  /** Every file the run writes or removes, `.yo-rc.json` last; checked before `writing`. */
  #changes: FileChange[] = [];
  /** Set just before an error that says everything itself (a refusal, a rolled-back write) is thrown; see the constructor. */
  #explained = false;

  constructor(args: string[], options: Record<string, unknown>) {
    super(args, options as never);
    this.argument('dir', { type: String, required: false, description: 'Directory to create (default: the project name)' });
    for (const spec of ANSWER_FLAGS) {
      this.option(spec.flag, { type: spec.type === 'boolean' ? Boolean : String, description: spec.message });
    }
    for (const spec of RUN_FLAGS) {
      if (spec.flag === 'skip-install') continue; // yeoman-generator declares it
      this.option(spec.flag, { type: Boolean, description: spec.description, ...(spec.flag === 'yes' ? { alias: 'y' } : {}) });
    }
    // yeoman's task runner logs "An error occured while running <task>" before it rethrows any
    // task error. A refusal already says what is wrong and what to pass, a failed write what
    // failed and that the project is as it was; that line would only come first and read like a
    // crash, so it is muted for those and kept for unexpected errors.
    // yeoman-generator assigns `log` in its own constructor but types it readonly.
    const muted = new Proxy(this.log, {
      get: (target, prop, receiver) => (prop === 'error' && this.#explained ? () => target : Reflect.get(target, prop, receiver)),
    });
    Object.defineProperty(this, 'log', { value: muted, configurable: true, writable: true });
  }

  #refusal(kind: ConstructorParameters<typeof GeneratorRefusal>[0], message: string): GeneratorRefusal {
    this.#explained = true;
    return new GeneratorRefusal(kind, message);
  }

  get #opts(): Record<string, unknown> {
    return this.options as unknown as Record<string, unknown>;
  }

  #flag(name: string): boolean {
    return readOption(this.#opts, name) === true;
  }

  #interactive(): boolean {
    const explicit = readOption(this.#opts, 'interactive');
    if (typeof explicit === 'boolean') return explicit;
    return Boolean(process.stdin.isTTY && process.stdout.isTTY);
  }

  #configKey(): string {
    return this.rootGeneratorName();
  }

  initializing(): void {
    const flags = answersFromFlags(this.#opts);
    if (!flags.ok) throw this.#refusal('invalid_flag', `Invalid flags, nothing was written:\n  ${flags.problems.join('\n  ')}`);
    const dir = readOption(this.#opts, 'dir');
    const dirGiven = typeof dir === 'string' && dir !== '';
    const cwd = this.contextRoot;
    const candidate = dirGiven ? resolve(cwd, dir) : cwd;
    const state = inspectDestination(candidate, this.#configKey());
    if (state.kind === 'ours') {
      this.#rerun = true;
      this.#target = candidate;
      this.#known = { ...state.stored, ...flags.given };
    } else {
      // `yo repair-service .` means here; with no argument the project gets its own directory.
      if (dirGiven) this.#target = candidate;
      this.#known = { ...flags.given };
      if (this.#known.name === undefined && this.#target !== undefined) this.#known.name = basename(this.#target);
    }
  }

  async prompting(): Promise<void> {
    const missing = ANSWER_NAMES.filter((name) => this.#known[name] === undefined);
    if (missing.length === 0) return;
    if (this.#flag('yes')) {
      for (const name of missing) this.#known[name] = defaultAnswer(name, this.#known as Partial<Answers>);
      return;
    }
    if (!this.#interactive()) throw this.#refusal('missing_answers', missingAnswersMessage(missing));
    for (const name of missing) this.#known[name] = await this.#ask(name);
  }

  async #ask(name: AnswerName): Promise<unknown> {
    const spec = flagFor(name);
    const fallback = defaultAnswer(name, this.#known as Partial<Answers>);
    const validate = (value: unknown): true | string => {
      const check = checkAnswer(name, typeof value === 'string' ? value.trim() : value);
      return check.ok ? true : `${spec.message} ${check.reason}`;
    };
    const question =
      name === 'githubActions'
        ? { type: 'confirm' as const, name, message: spec.message, default: fallback }
        : name === 'authScheme'
          ? { type: 'list' as const, name, message: spec.message, choices: ['bearer', 'x-api-key'], default: fallback }
          : { type: 'input' as const, name, message: spec.message, default: fallback, validate };
    const reply = (await this.prompt([question as never])) as Record<string, unknown>;
    const value = reply[name];
    return typeof value === 'string' ? value.trim() : value;
  }

  configuring(): void {
    const result = completeAnswers(this.#known);
    if (!result.ok) {
      const lines = result.problems.map((p) => `${flagFor(p.name).message} (--${flagFor(p.name).flag}) ${p.reason}, got ${JSON.stringify(p.value)}`);
      if (result.missing.length > 0) lines.push(`missing: ${result.missing.map((n) => `--${flagFor(n).flag}`).join(', ')}`);
      throw this.#refusal('invalid_answer', `Invalid answers, nothing was written:\n  ${lines.join('\n  ')}`);
    }
    this.#answers = result.answers;
    const target = this.#target ?? resolve(this.contextRoot, result.answers.name);
    if (!this.#rerun) this.#refuseUnsafeDestination(target);
    this.#target = target;
    this.#plan = this.#makePlan(target, result.answers);
    this.#changes = this.#makeChanges(target, result.answers, this.#plan);
  }

  /** Decided here, before anything is written: a refusal leaves the project as it was. */
  #makePlan(target: string, answers: Answers): ReadyPlan {
    const { plan } = planProject({ packageRoot: packageRoot(), target, answers, configKey: this.#configKey(), force: this.#flag('force') });
    if (plan.kind === 'refused') {
      // A link out of the project comes first: --force, which the refusal suggests, would not help.
      this.#refuseBlockedPaths(target, plan.edited.map((f) => f.path));
      throw this.#refusal('toolkit_files_edited', refusalMessage(plan, this.#rerun ? 'repairmon upgrade' : 'repairmon new'));
    }
    const changing = changingActions(plan);
    if (this.#flag('bail') && changing.length > 0) {
      throw this.#refusal('would_change', `--bail: this run would change ${changing.length} file(s), nothing was written:\n  ${changing.map((a) => `${a.kind} ${a.path}`).join('\n  ')}`);
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
    const rc = nextYoRc(current?.toString('utf8'), this.#configKey(), { ...answers, [RECORD_KEY]: plan.record });
    if (!rc.ok) throw this.#refusal('config_unreadable', rc.reason);
    const text = Buffer.from(rc.text, 'utf8');
    if (!current?.equals(text)) changes.push({ path: YO_RC, contents: text });
    return changes;
  }

  #refuseBlockedPaths(target: string, paths: readonly string[]): void {
    const problems = pathsInTheWay(target, paths);
    if (problems.length > 0) throw this.#refusal('path_in_the_way', pathProblemsMessage(problems));
  }

  #refuseUnsafeDestination(target: string): void {
    const state = inspectDestination(target, this.#configKey());
    const shown = target;
    if (state.kind === 'not_a_directory') throw this.#refusal('not_a_directory', `${shown} exists and is not a directory; nothing was written.`);
    if (state.kind === 'not_empty' && !this.#flag('force')) {
      throw this.#refusal(
        'directory_not_empty',
        `${shown} is not empty (${state.entries} entries) and was not generated by repair-service; nothing was written. ` +
          'Choose another directory (or --name), or pass --force to write into it (files already there are kept; a package.json is merged).',
      );
    }
  }

  writing(): void {
    const target = this.#target;
    if (!this.#answers || !target || !this.#plan) throw new Error('writing before configuring');
    try {
      commitChanges(target, this.#changes);
    } catch (error) {
      if (error instanceof CommitError) this.#explained = true;
      throw error;
    }
    this.destinationRoot(target);
    // The environment installs where its cwd is, and reads that at its install step: point it at the project.
    (this.env as unknown as { cwd: string }).cwd = target;
    if (this.#changes.some((c) => c.path === 'package.json')) this.#markPackageJsonWritten();
  }

  /**
   * yeoman-environment runs `npm install` when its in-memory fs committed package.json. Our
   * files bypass that fs (it writes file by file, with no way back), so package.json is loaded
   * from disk into it and marked committed: the install step sees the change it would have made.
   */
  #markPackageJsonWritten(): void {
    (this.fs.store.get(this.destinationPath('package.json')) as { committed?: boolean }).committed = true;
  }

  end(): void {
    const answers = this.#answers;
    const plan = this.#plan;
    if (!answers || !plan) return;
    if (this.#rerun) {
      this.log(`\n${planSummary(plan)}\n`);
      return;
    }
    this.log(nextSteps(answers, relative(this.contextRoot, this.destinationRoot()) || '.', this.#flag('skip-install')));
  }
}
