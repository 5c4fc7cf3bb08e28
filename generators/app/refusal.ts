/**
 * Why the generator would not run. Thrown before anything is written; `repairmon new` turns it
 * into exit code 2 and a message with no stack, yo prints its message.
 */
export type RefusalReason =
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
  | 'config_unreadable';

export class GeneratorRefusal extends Error {
  override readonly name = 'GeneratorRefusal';
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/** Works across copies of the class (yo may load a second copy of our package). */
export function isGeneratorRefusal(error: unknown): error is GeneratorRefusal {
  return error instanceof Error && error.name === 'GeneratorRefusal' && 'reason' in error;
}
