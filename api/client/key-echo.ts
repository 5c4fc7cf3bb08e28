/**
 * A server that echoes the key back does not always write it as it was sent: as JSON escapes
 * (`\u0072\u0073…`, which parse back to the key), upper-cased, or a few characters short (cut
 * by its own truncation, or by ours). `redactSecrets` finds the exact value only; this also finds
 * those forms, in the texts a server wrote that are shown to people: its error code and message,
 * what is wrong with a body, the start of a body.
 */
import type { ApiKey } from './api-key.js';

/** A run of this many characters of the key, in any case, counts as showing it. */
export const KEY_ECHO_MIN_RUN = 10;
/** Blocks of the key searched for; any run of KEY_ECHO_MIN_RUN characters holds one whole. */
const BLOCK = Math.floor((KEY_ECHO_MIN_RUN + 1) / 2);

/** `\uXXXX` and `\/` escapes of visible ASCII written out, as a reader of the JSON would see them. */
const JSON_ESCAPE = /\\(\\|\/|u([0-9a-fA-F]{4}))/g;

function unescapeVisibleAscii(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(JSON_ESCAPE, (whole, what: string, hex: string | undefined) => {
    if (what === '/') return '/';
    if (hex === undefined) return whole;
    const code = Number.parseInt(hex, 16);
    // `"` and `\` stay escaped: written out they would change where a JSON string ends.
    return code > 0x20 && code < 0x7f && code !== 0x22 && code !== 0x5c ? String.fromCharCode(code) : whole;
  });
}

/** Lower case with positions kept: `toLowerCase` unless a character would grow (then ASCII only). */
function asciiLower(text: string): string {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/** [start, end) of every run of at least KEY_ECHO_MIN_RUN characters that is part of `secret`. */
function runsOf(lower: string, secret: string): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let k = 0; k + BLOCK <= secret.length; k += BLOCK) {
    const block = secret.slice(k, k + BLOCK);
    for (let at = lower.indexOf(block); at !== -1; at = lower.indexOf(block, at + 1)) {
      let left = 0;
      while (at - left > 0 && k - left > 0 && lower[at - left - 1] === secret[k - left - 1]) left += 1;
      let right = BLOCK;
      while (at + right < lower.length && k + right < secret.length && lower[at + right] === secret[k + right]) right += 1;
      if (left + right >= KEY_ECHO_MIN_RUN) runs.push([at - left, at + right]);
    }
  }
  return runs;
}

/** Overlapping runs as one, in order. */
function merged(runs: Array<[number, number]>): Array<[number, number]> {
  const sorted = runs.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const run of sorted) {
    const last = out[out.length - 1];
    if (last && run[0] <= last[1]) last[1] = Math.max(last[1], run[1]);
    else out.push([run[0], run[1]]);
  }
  return out;
}

/** Replaces the key, whole or in part, escaped or in another case, with `[REDACTED …hint]`. */
export function scrubKeyEchoes(text: string, keys: Iterable<ApiKey>): string {
  let out = text;
  for (const key of keys) {
    const secret = asciiLower(key.reveal());
    if (secret.length < KEY_ECHO_MIN_RUN) continue;
    const plain = unescapeVisibleAscii(out);
    const runs = merged(runsOf(asciiLower(plain), secret));
    if (runs.length === 0) continue;
    let cleaned = '';
    let from = 0;
    for (const [start, end] of runs) {
      cleaned += `${plain.slice(from, start)}[REDACTED ${key.hint}]`;
      from = end;
    }
    out = cleaned + plain.slice(from);
  }
  return out;
}
