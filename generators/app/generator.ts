/**
 * `yo repair-service [dir]`: the run of `../run.ts` in Yeoman's run loop, asking at its prompts
 * for what the flags leave out (`repairmon new` and `upgrade` use that run without Yeoman when
 * nothing needs asking). The boundary with Yeoman is two of its public generator features.
 * `customCommitTask`: the environment's commit step puts the plan's files in place all or
 * nothing (staged-commit.ts, `.yo-rc.json` last) instead of committing its in-memory fs file by
 * file (which also asks before overwriting: a run needs no terminal); nothing is written to that
 * fs. And `customInstallTask`: the environment's install step (which watches that fs) is off;
 * the commit step runs npm when package.json changed, unless `--skip-install`.
 */
import { basename } from 'node:path';
import Generator from 'yeoman-generator';
import { type PlannedRun, askMissing, finishRun, planRun, startRun } from '../run.js';
import { ANSWER_FLAGS, RUN_FLAGS, flagDescription, generatorHelp, readOption } from './flags.js';
import type { Prompt } from './questions.js';
import { type GeneratorRefusal, isGeneratorRefusal } from './refusal.js';

export default class RepairServiceGenerator extends Generator {
  /** Planned and checked by the prompting task, carried out by the commit step. */
  #planned: PlannedRun | undefined;
  /** Why the run stops; thrown by the commit step (see prompting). */
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
   * Everything before the first write: flags, destination, answers (asked here), plan, checks.
   * A refusal says what is wrong and what to pass. Thrown from a task, yeoman-generator would
   * log "An error occured while running <task>" before it, which reads like a crash; so the
   * commit step, the environment's, throws it instead. Any other error is unexpected and keeps
   * that line.
   */
  async prompting(): Promise<void> {
    const passed = this.#passedByEnvironment();
    const setting = {
      contextRoot: this.contextRoot,
      configKey: this.rootGeneratorName(),
      options: this.options,
      passed,
    };
    try {
      const start = startRun(setting, (text) => this.log(text));
      const prompt: Prompt = (questions) => this.prompt(questions as never);
      await askMissing(start, this.#interactive() ? prompt : undefined);
      this.#planned = planRun(start);
    } catch (error) {
      if (!isGeneratorRefusal(error)) throw error;
      this.#refused = error;
    }
  }

  /** The environment's commit step (`customCommitTask`): the refusal, or the run carried out. */
  async #commit(): Promise<void> {
    if (this.#refused) throw this.#refused;
    if (this.#planned) await finishRun(this.#planned, (text) => this.log(text));
  }
}
