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
import { basename } from 'node:path';
import Generator from 'yeoman-generator';
import { type AnswerName, checkAnswer, isBooleanAnswer } from './answers.js';
import {
  ANSWER_FLAGS,
  RUN_FLAGS,
  flagDescription,
  flagFor,
  generatorHelp,
  readOption,
} from './flags.js';
import { ProjectRun } from './project-run.js';
import { type GeneratorRefusal, asCancelled, isGeneratorRefusal } from './refusal.js';

export default class RepairServiceGenerator extends Generator {
  /** The run itself (project-run.ts); created once Yeoman has parsed the options. */
  #run: ProjectRun | undefined;
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
        description: flagDescription(spec),
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

  /** `yo repair-service --help` (yeoman-environment prints what this returns). */
  override help(): string {
    return generatorHelp();
  }

  /** Yeoman names the app after the package.json of where it runs; ours is named by the answers, and that file may be anything (a refusal of ours names it). */
  override determineAppname(): string {
    return basename(this.destinationRoot());
  }

  get #project(): ProjectRun {
    this.#run ??= new ProjectRun({
      contextRoot: this.contextRoot,
      configKey: this.rootGeneratorName(),
      options: this.options,
      passed: this.#passedByEnvironment(),
    });
    return this.#run;
  }

  /** The environment's own keys in the options bag (not flags a user typed). */
  #passedByEnvironment(): string[] {
    const shared = (this.env as unknown as { sharedOptions?: object }).sharedOptions ?? {};
    return ['env', 'resolved', 'namespace', '_meta', ...Object.keys(shared)];
  }

  #interactive(): boolean {
    const explicit = readOption(this.options, 'interactive');
    if (typeof explicit === 'boolean') return explicit;
    return Boolean(process.stdin.isTTY && process.stdout.isTTY);
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
    return this.#refusing(() => this.#project.initialize());
  }

  prompting(): Promise<void> {
    return this.#refusing(() => this.#prompt());
  }

  configuring(): Promise<void> {
    return this.#refusing(() => this.#project.configure());
  }

  async #prompt(): Promise<void> {
    const missing = this.#project.missingAnswers();
    if (missing.length === 0) return;
    if (!this.#interactive()) this.#project.refuseMissing(missing);
    for (const name of missing) this.#project.answer(name, await this.#ask(name));
  }

  async #ask(name: AnswerName): Promise<unknown> {
    const spec = flagFor(name);
    const fallback = this.#project.defaultFor(name);
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
    const reply = await this.prompt<Record<string, unknown>>([question as never]).catch(
      (error: unknown) => {
        // Ctrl+C in a prompt: nothing is written yet, and one line says so.
        if (error instanceof Error && error.name === 'ExitPromptError') throw asCancelled(error);
        throw error;
      },
    );
    const value = reply[name];
    return typeof value === 'string' ? value.trim() : value;
  }

  /** The environment's commit step (`customCommitTask`): the refusal, or every change in place, all or nothing. */
  #commit(): void {
    if (this.#refused) throw this.#refused;
    const target = this.#project.commit();
    if (target !== undefined) this.destinationRoot(target);
  }

  /** The environment's own install step is off (`customInstallTask`); this one knows the package manager. */
  async install(): Promise<void> {
    const dir = this.#project.installDir();
    if (dir === undefined) return;
    this.log(`\npackage.json changed: running npm install in ${dir}`);
    await this.spawn('npm', ['install'], { cwd: dir, stdio: 'inherit' });
  }

  end(): void {
    const words = this.#project.closingWords();
    if (words !== undefined) this.log(words);
  }
}
