/**
 * The API key, and keeping it out of every text that leaves the process: an `ApiKey` prints as
 * its alias and last 4 characters; only `reveal()`, where the auth header is built, gives the
 * value.
 */

/** The last 4 characters at most; none of a very short key, which they would be most of. */
export function keyHint(value: string): string {
  return value.length < 12 ? '…' : `…${value.slice(-4)}`;
}

export class ApiKey {
  readonly #value: string;
  readonly alias: string;
  readonly hint: string;

  constructor(value: string, alias = 'api-key') {
    const trimmed = value.trim();
    if (trimmed === '') throw new TypeError(`API key "${alias}" is empty`);
    if (/\s/.test(trimmed)) throw new TypeError(`API key "${alias}" contains whitespace`);
    // The spec shows no key format: only what a header value cannot carry is refused.
    if (!/^[\x21-\x7e]+$/.test(trimmed))
      throw new TypeError(
        `API key "${alias}" contains a character an HTTP header cannot carry (only visible ASCII)`,
      );
    this.#value = trimmed;
    this.alias = alias;
    this.hint = keyHint(trimmed);
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return `${this.alias}(${this.hint})`;
  }

  toJSON(): { alias: string; hint: string } {
    return { alias: this.alias, hint: this.hint };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ApiKey ${this.toString()}`;
  }
}

export function redactSecrets(text: string, keys: Iterable<ApiKey>): string {
  let out = text;
  for (const key of keys) {
    const value = key.reveal();
    if (value.length > 0 && out.includes(value))
      out = out.split(value).join(`[REDACTED ${key.hint}]`);
  }
  return out;
}

/** A run of this many characters of the key, in any case, counts as showing it. */
const KEY_ECHO_MIN_RUN = 10;
/** Any run of KEY_ECHO_MIN_RUN characters holds one of these blocks whole. */
const BLOCK = Math.floor((KEY_ECHO_MIN_RUN + 1) / 2);

/** `\uXXXX` and `\/` escapes of visible ASCII written out, as a reader of the JSON sees them. */
function unescapeVisibleAscii(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(
    /\\(\\|\/|u([0-9a-fA-F]{4}))/g,
    (whole, what: string, hex: string | undefined) => {
      if (what === '/') return '/';
      if (hex === undefined) return whole;
      const code = Number.parseInt(hex, 16);
      // `"` and `\` stay escaped: written out they would change where a JSON string ends.
      return code > 0x20 && code < 0x7f && code !== 0x22 && code !== 0x5c
        ? String.fromCharCode(code)
        : whole;
    },
  );
}

/** Lower case with positions kept: ASCII only when a character would grow. */
function asciiLower(text: string): string {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/**
 * [start, end) of every run of `lower`, at least KEY_ECHO_MIN_RUN long, that is part of `secret`,
 * overlaps merged.
 */
function runsOf(lower: string, secret: string): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let k = 0; k + BLOCK <= secret.length; k += BLOCK) {
    const block = secret.slice(k, k + BLOCK);
    for (let at = lower.indexOf(block); at !== -1; at = lower.indexOf(block, at + 1)) {
      let left = 0;
      while (at - left > 0 && k - left > 0 && lower[at - left - 1] === secret[k - left - 1])
        left += 1;
      let right = BLOCK;
      while (
        at + right < lower.length &&
        k + right < secret.length &&
        lower[at + right] === secret[k + right]
      )
        right += 1;
      if (left + right >= KEY_ECHO_MIN_RUN) runs.push([at - left, at + right]);
    }
  }
  const merged: Array<[number, number]> = [];
  for (const run of runs.sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && run[0] <= last[1]) last[1] = Math.max(last[1], run[1]);
    else merged.push(run);
  }
  return merged;
}

/**
 * A server that echoes the key may write it JSON-escaped, re-cased or cut short: `redactSecrets`
 * finds only the exact value, this finds those forms too, in the server's texts shown to people.
 */
export function scrubKeyEchoes(text: string, keys: Iterable<ApiKey>): string {
  let out = text;
  for (const key of keys) {
    const secret = asciiLower(key.reveal());
    if (secret.length < KEY_ECHO_MIN_RUN) continue;
    const plain = unescapeVisibleAscii(out);
    const runs = runsOf(asciiLower(plain), secret);
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
