/**
 * Why the generator would not run. Thrown before anything is written; `repairmon new` and yo
 * both print its message with no stack and exit with its `code` (the one set of exit codes
 * below): yo 7 ends a failed run with `process.exit(error.code || 1)`, so the code travels on
 * the error itself, the one way a generator can set yo's exit status.
 */
export const GENERATOR_EXIT = {
  /** A write failed (rolled back: nothing written), or an unexpected error. */
  failed: 1,
  /** Refused: a bad flag or answer, a directory in the way; nothing written. */
  refused: 2,
  /** Ctrl+C in a prompt; nothing written. 128 + SIGINT, as a shell reports it. */
  cancelled: 130,
} as const;

export type RefusalReason =
  /** Ctrl+C in a prompt. */
  | 'cancelled'
  | 'invalid_flag'
  | 'invalid_answer'
  | 'missing_answers'
  | 'directory_not_empty'
  | 'not_a_directory'
  /** Toolkit-owned files were edited (or package.json is unreadable); `--force` keeps `.orig` copies. */
  | 'toolkit_files_edited'
  /** `--bail` and the run would change a file. */
  | 'would_change'
  /** A symlink out of the project, or a file or folder where the other goes (write-safety.ts). */
  | 'path_in_the_way'
  /** `.yo-rc.json` exists but is not a JSON object. */
  | 'config_unreadable'
  /** A re-run given another text answer than the project's: the files that are yours keep the old one. */
  | 'answer_changed';

export class GeneratorRefusal extends Error {
  override readonly name = 'GeneratorRefusal';
  /** The exit status: yo exits with it, and so does `repairmon new`. */
  readonly code: number;
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.code = reason === 'cancelled' ? GENERATOR_EXIT.cancelled : GENERATOR_EXIT.refused;
  }
}

/** The exit status of a run that threw `error`. */
export function generatorExitCode(error: unknown): number {
  return isGeneratorRefusal(error) ? error.code : GENERATOR_EXIT.failed;
}

/** Works across copies of the class (yo may load a second copy of our package). */
export function isGeneratorRefusal(error: unknown): error is GeneratorRefusal {
  return error instanceof Error && error.name === 'GeneratorRefusal' && 'reason' in error;
}

/**
 * Ctrl+C in a prompt (Inquirer's `ExitPromptError`). yeoman's adapter has already ended the run
 * with that very error object when the generator sees it (yo and yeoman-environment report the
 * object the adapter aborted with), so the object itself becomes the refusal: one message, exit
 * 130, no stack; a new error thrown here would never be seen.
 */
export function asCancelled(error: Error): GeneratorRefusal {
  return Object.assign(error, {
    name: 'GeneratorRefusal',
    reason: 'cancelled',
    code: GENERATOR_EXIT.cancelled,
    message: 'cancelled, nothing written',
  }) as GeneratorRefusal;
}
