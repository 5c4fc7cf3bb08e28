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
