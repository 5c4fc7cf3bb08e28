/**
 * A path as one POSIX shell word, for the commands a run prints to copy and paste: a directory
 * named `it's here; rm -rf ~` must stay one argument of `cd`, never a second command.
 */
const PLAIN = /^[A-Za-z0-9_./+:@%=,-]+$/;

export function shellQuote(word: string): string {
  // A leading dash would be read as an option of `cd`.
  const safe = word.startsWith('-') ? `./${word}` : word;
  if (safe !== '' && PLAIN.test(safe)) return safe;
  return `'${safe.replace(/'/g, `'\\''`)}'`;
}
