/**
 * Running the repair-service generator through yeoman-environment directly (no `yo`), shared
 * by `repairmon new` and `repairmon upgrade`: it also works as root (yo refuses root) and in
 * scripts. A refusal of the generator (bad answers, edited toolkit files, ...) is exit code 2;
 * any other failure, such as a write that failed and was rolled back, is 1.
 */
import { join } from 'node:path';
import type { CommandContext } from '../command.js';
import { packageRoot } from '../../lib/index.js';
import { isGeneratorRefusal } from '../../generators/entry.js';

const NAMESPACE = 'repair-service:app';

export async function runGenerator(
  ctx: CommandContext,
  command: string,
  positionals: readonly string[],
  options: Record<string, unknown>,
): Promise<number> {
  const { createEnv } = await import('yeoman-environment');
  // Force, bail and the install are the generator's own options (its plan, its install task).
  const env = createEnv({ cwd: process.cwd(), stdin: ctx.stdin, stdout: ctx.stdout, stderr: ctx.stderr } as never);
  env.register(join(packageRoot(), 'generators', 'app', 'index.js'), { namespace: NAMESPACE });
  try {
    await env.run([NAMESPACE, ...positionals], options);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.stderr.write(`repairmon ${command}: ${message}\n`);
    return isGeneratorRefusal(error) ? 2 : 1;
  }
}
