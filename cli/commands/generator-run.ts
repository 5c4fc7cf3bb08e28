/**
 * The repair-service generator through yeoman-environment (no `yo`), for `new` and `upgrade`:
 * a refusal of the generator exits 2, any other failure (a write rolled back) 1.
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
