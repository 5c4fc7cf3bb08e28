/**
 * Text a server chose on its way to people: bounded where it is read, so a runaway value cannot
 * fill memory, logs and pages, and made printable, so it cannot drive a terminal or reorder the
 * text around it (bidirectional overrides).
 */

/** `error.code`, `error.message`, what is wrong with a body (or a `Location`), an id header: longer is cut, ending in `…`. */
export const SERVER_TEXT_LIMITS = { code: 64, message: 300, detail: 300, header: 128 } as const;

/**
 * C0 and C1 controls (ESC, CSI, BEL, CR, newline, ...), DEL, bidirectional marks, overrides and
 * isolates, line and paragraph separators, zero-width space and BOM: what a terminal acts on or
 * what makes shown text read differently from what it is.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;
const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'g');

function escaped(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Control and bidi characters written as `\x1b` / `\u202e`: still readable, no longer acted on. */
export function printable(text: string): string {
  return UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE_ALL, escaped) : text;
}

/** At most `max` characters; a cut value ends in `…`. */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  let room = Math.max(0, max - 1);
  // Never split a surrogate pair: half a character prints as a replacement box.
  const last = text.charCodeAt(room - 1);
  if (last >= 0xd800 && last <= 0xdbff) room -= 1;
  return `${text.slice(0, room)}…`;
}

/** Printable and bounded: how a server's text is kept once read. Applying it twice changes nothing. */
export function serverText(text: string, max: number): string {
  return boundText(printable(text), max);
}
