/**
 * The questions for the answers the flags leave out, one at a time, the same under `yo` (the
 * generator's `this.prompt`) and `repairmon new` (@yeoman/adapter's terminal adapter, which is
 * what yeoman-environment prompts with): both take Inquirer's question objects.
 */
import { type AnswerName, checkAnswer, isBooleanAnswer } from './answers.js';
import { flagFor } from './flags.js';
import { asCancelled } from './refusal.js';

export type Prompt = (questions: readonly object[]) => Promise<Record<string, unknown>>;

function questionFor(name: AnswerName, fallback: unknown): object {
  const { message } = flagFor(name);
  if (isBooleanAnswer(name)) return { type: 'confirm', name, message, default: fallback };
  if (name === 'authScheme')
    return { type: 'select', name, message, choices: ['bearer', 'x-api-key'], default: fallback };
  const validate = (value: unknown): true | string => {
    const check = checkAnswer(name, typeof value === 'string' ? value.trim() : value);
    return check.ok ? true : `${message} ${check.reason}`;
  };
  return { type: 'input', name, message, default: fallback, validate };
}

/** One answer asked; Ctrl+C (Inquirer's `ExitPromptError`) becomes "cancelled, nothing written". */
export async function ask(prompt: Prompt, name: AnswerName, fallback: unknown): Promise<unknown> {
  const reply = await prompt([questionFor(name, fallback)]).catch((error: unknown) => {
    if (error instanceof Error && error.name === 'ExitPromptError') throw asCancelled(error);
    throw error;
  });
  const value = reply[name];
  return typeof value === 'string' ? value.trim() : value;
}
