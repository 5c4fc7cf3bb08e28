/**
 * A value as it may appear on one line of a `.env` file (read with Node's `process.loadEnvFile`).
 * The answers are validated before rendering, so this is the last line of defence: whatever an
 * answer holds, it cannot add a line (`NODE_OPTIONS=...`) to the file. A control character is
 * refused outright; a value Node would cut or trim (`#`, quotes, spaces at either end) is quoted
 * with a quote character it does not contain.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const NEEDS_QUOTES = /[#"'`\\]|^\s|\s$/;

/** `name` is the variable, for the error. */
export function envFileValue(value: string, name: string): string {
  const at = value.search(CONTROL);
  if (at >= 0) {
    const code = value.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
    throw new Error(`${name} contains a control character (U+${code} at position ${at + 1}); its value cannot be written to an env file`);
  }
  if (!NEEDS_QUOTES.test(value)) return value;
  const quote = ["'", '"', '`'].find((q) => !value.includes(q));
  if (quote === undefined) throw new Error(`${name} contains all three quote characters; it cannot be written to an env file as one value`);
  return `${quote}${value}${quote}`;
}

/** Control characters in any string answer: these end up in README, config and workflow files too. */
export function controlCharacterAnswers(answers: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(answers)
    .filter(([, value]) => typeof value === 'string' && CONTROL.test(value))
    .map(([name]) => name);
}
