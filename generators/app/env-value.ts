/**
 * A value as one line of a `.env` file that two readers take literally: Node's
 * `process.loadEnvFile` (what the project runs with) and a shell (`set -a; . ./.env`, what
 * people do). A plain value stays bare; anything else is single-quoted (literal for both);
 * a value holding `'` is double-quoted when nothing in it is special there (`$`, backtick, `"`,
 * `\`); a value with both cannot be written literally for both readers and is refused.
 */

export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** Nothing a shell expands, splits or ends an assignment at (`~` expands after `=` and `:`). */
const PLAIN = /^[A-Za-z0-9_.,:/@%+=-]*$/;
const SPECIAL_IN_DOUBLE_QUOTES = /[$`"\\]/;

/** Why `value` cannot be written to an env file, or undefined. */
export function envValueProblem(value: string): string | undefined {
  const at = value.search(CONTROL);
  if (at >= 0) {
    const code = value.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
    return `contains a control character (U+${code} at position ${at + 1}); its value cannot be written to an env file`;
  }
  if (value.includes("'") && SPECIAL_IN_DOUBLE_QUOTES.test(value))
    return "contains ' together with $, `, \" or \\: no quoting keeps that literal for both a shell and Node's env-file reader";
  return undefined;
}

/** `value` quoted for a `.env` line (see above); throws naming `name` when it cannot be. */
export function envFileValue(value: string, name: string): string {
  const problem = envValueProblem(value);
  if (problem !== undefined) throw new Error(`${name} ${problem}`);
  if (PLAIN.test(value)) return value;
  return value.includes("'") ? `"${value}"` : `'${value}'`;
}
