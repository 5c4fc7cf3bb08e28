/**
 * An API key that cannot be printed by accident: `toString`, `toJSON`, `util.inspect` and
 * template literals show only the alias and the last 4 characters. The value is reachable
 * only through `reveal()`, which the request layer calls when it builds the auth header.
 */

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/** How many trailing characters may be shown (the project rule: last 4 at most). */
export const KEY_VISIBLE_SUFFIX = 4;

export function keyHint(value: string): string {
  // A very short key would be shown whole by its last 4; show nothing of it instead.
  if (value.length < KEY_VISIBLE_SUFFIX * 3) return '…';
  return `…${value.slice(-KEY_VISIBLE_SUFFIX)}`;
}

export class ApiKey {
  readonly #value: string;
  readonly alias: string;
  readonly hint: string;

  constructor(value: string, alias = 'api-key') {
    const trimmed = value.trim();
    if (trimmed === '') throw new TypeError(`API key "${alias}" is empty`);
    if (/\s/.test(trimmed)) throw new TypeError(`API key "${alias}" contains whitespace`);
    // The key format is not shown by the spec; only what a header value cannot carry is refused.
    if (!/^[\x21-\x7e]+$/.test(trimmed)) throw new TypeError(`API key "${alias}" contains a character an HTTP header cannot carry (only visible ASCII)`);
    this.#value = trimmed;
    this.alias = alias;
    this.hint = keyHint(trimmed);
  }

  /** The secret itself. Call only where it goes into a request header. */
  reveal(): string {
    return this.#value;
  }

  /** Constant-shape comparison helper for config checks (test key must differ from production). */
  sameAs(other: ApiKey): boolean {
    return this.#value === other.#value;
  }

  toString(): string {
    return `${this.alias}(${this.hint})`;
  }

  toJSON(): { alias: string; hint: string } {
    return { alias: this.alias, hint: this.hint };
  }

  [inspectSymbol](): string {
    return `ApiKey ${this.toString()}`;
  }
}

/**
 * Last net before text leaves the process: replaces any occurrence of the key values with
 * their hints. Used on log lines, error messages and body excerpts.
 */
export function redactSecrets(text: string, keys: Iterable<ApiKey>): string {
  let out = text;
  for (const key of keys) {
    const value = key.reveal();
    if (value.length > 0 && out.includes(value)) out = out.split(value).join(`[REDACTED ${key.hint}]`);
  }
  return out;
}
