import { type ConfigIssue, decodeDocument, formatIssues, readDocument } from '../lib/index.js';

/** A bad sandbox option (fault spec, rate limit, data file): names the option and what is wrong. */
export class SandboxConfigError extends Error {
  override readonly name = 'SandboxConfigError';
  constructor(
    /** The option or flag, e.g. `faults`, `rate-limit`, `data`. */
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}

export function isSandboxConfigError(error: unknown): error is SandboxConfigError {
  return error instanceof Error && error.name === 'SandboxConfigError' && 'option' in error;
}

/** The value of a config-kit result, or a SandboxConfigError naming the file and every problem at once. */
export function checkedOrThrow<T>(
  option: string,
  file: string,
  checked: { ok: true; value: T } | { ok: false; issues: readonly ConfigIssue[] },
): T {
  if (checked.ok) return checked.value;
  const { issues } = checked;
  const only = issues.length === 1 && issues[0]?.path === '' ? issues[0] : undefined;
  throw new SandboxConfigError(
    option,
    only ? `${file}: ${only.message}` : `${file}: ${issues.length} problem(s):\n${formatIssues(issues)}`,
  );
}

/** A user's YAML or JSON file (`--data`, `--keys`) read and decoded, or refused naming it. */
export function decodeFile(file: string, option: string, what: string): unknown {
  const read = checkedOrThrow(option, file, readDocument(file, what));
  return checkedOrThrow(option, file, decodeDocument(read.text, file));
}
