/**
 * Whether text written where a *reference* to a secret belongs (a file path, an `${ENV}` name)
 * looks like the secret itself, and how to show it then. Pasting the key where its path or
 * variable name should be is an easy slip; the error about that slip must not print the key
 * back into a terminal, a CI log or the monitor's log. So such text is shown as its last 4
 * characters at most. Beyond our own key prefixes the test is a guess (long, mixed, random-
 * looking); a false positive only shortens a message, a false negative leaks a secret.
 */
import { KEY_PREFIXES } from '../api/contract/index.js';

/** Shorter runs are names (`NOWAK_KEY`, `nowak-prod.key`), not tokens worth guessing about. */
const MIN_TOKEN_LENGTH = 20;
/** Random base62 is ~5.9 bits a character; English-like names stay well under 3.5. */
const MIN_BITS_PER_CHAR = 3.5;

function bitsPerChar(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

function randomLooking(part: string): boolean {
  if (part.length < MIN_TOKEN_LENGTH) return false;
  // `openssl rand -hex 32`, the token recipe our own messages give.
  if (/[0-9a-f]{32,}/i.test(part)) return true;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((r) => r.test(part)).length;
  return classes === 3 && bitsPerChar(part) >= MIN_BITS_PER_CHAR;
}

/** Holds one of our key prefixes: certain, unlike the guess below, so fields may refuse it. */
export function hasKeyPrefix(text: string): boolean {
  return Object.values(KEY_PREFIXES).some((prefix) => text.includes(prefix));
}

export function looksLikeSecret(text: string): boolean {
  return hasKeyPrefix(text) || text.split(/[/\\]/).some(randomLooking);
}

/** The text itself, or `…last4` when it looks like a secret. */
export function shownValue(text: string): string {
  return looksLikeSecret(text) ? `…${text.slice(-4)}` : text;
}
