/**
 * The second entry, for `repairmon new` and `upgrade`: the generator's run without Yeoman when
 * nothing needs asking (project-run.ts). The CLI imports it only when one of those commands runs:
 * it loads the templates, the OpenAPI builder and the plan.
 */
import { spawn } from 'node:child_process';
import { ProjectRun, type RunSetting } from './app/project-run.js';

export type DirectRun =
  /** The run is done (the project written, or a refusal thrown before any write). */
  | { readonly kind: 'done' }
  /** Answers are missing and may be asked for: Yeoman's prompts take over. */
  | { readonly kind: 'needs_prompts' };

export interface DirectRunIo {
  readonly interactive: boolean;
  readonly log: (text: string) => void;
}

/** npm install in the new project, its output on our terminal, as yeoman-generator's `spawn` does. */
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

/** The same steps, in the same order, as the Yeoman generator's run loop; refusals are thrown. */
export async function runDirectly(setting: RunSetting, io: DirectRunIo): Promise<DirectRun> {
  const run = new ProjectRun(setting);
  run.initialize();
  const missing = run.missingAnswers();
  if (missing.length > 0) {
    if (io.interactive) return { kind: 'needs_prompts' };
    run.refuseMissing(missing);
  }
  run.configure();
  run.commit();
  const dir = run.installDir();
  if (dir !== undefined) {
    io.log(`\npackage.json changed: running npm install in ${dir}`);
    await npmInstall(dir);
  }
  const words = run.closingWords();
  if (words !== undefined) io.log(words);
  return { kind: 'done' };
}
