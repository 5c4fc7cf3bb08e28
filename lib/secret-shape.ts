/**
 * Whether text written where a *reference* to a secret belongs (a file path, an `${ENV}` name)
 * looks like the secret itself: pasting the key there is an easy slip, and the error about it
 * must not print the key back, so such text is shown as its last 4 characters at most. Beyond
 * our key prefixes it is a guess; a false positive only shortens a message, a false negative leaks.
 */
import { KEY_PREFIXES } from '../api/contract/index.js';

/** Shorter runs are names (`NOWAK_KEY`, `nowak-prod.key`), not tokens worth guessing about. */
const MIN_TOKEN_LENGTH = 20;
/** Random base62 is ~5.9 bits a character; English-like names stay well under 3.5. */
const MIN_BITS_PER_CHAR = 3.5;
/** How often neighbours change class (lower, upper, digit, other): ~0.6 in random base62, under 0.3 in `NowakProductionKey2024`. */
const MIN_CLASS_CHANGES = 0.3;

function bitsPerChar(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

const charClass = (c: string): number => (/[a-z]/.test(c) ? 0 : /[A-Z]/.test(c) ? 1 : /[0-9]/.test(c) ? 2 : 3);

function classChanges(text: string): number {
  let changes = 0;
  for (let i = 1; i < text.length; i++) if (charClass(text[i]!) !== charClass(text[i - 1]!)) changes++;
  return changes / (text.length - 1);
}

function randomLooking(part: string): boolean {
  if (part.length < MIN_TOKEN_LENGTH) return false;
  // `openssl rand -hex 32`, the token recipe our own messages give.
  if (/[0-9a-f]{32,}/i.test(part)) return true;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((r) => r.test(part)).length;
  return classes === 3 && bitsPerChar(part) >= MIN_BITS_PER_CHAR && classChanges(part) >= MIN_CLASS_CHANGES;
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

/** A resolved path for messages, unless what the user wrote for it (not our own folders) looks like a secret. */
export function shownPath(written: string, resolved: string): string {
  return looksLikeSecret(written) ? shownValue(written) : resolved;
}
