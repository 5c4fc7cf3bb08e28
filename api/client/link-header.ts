/**
 * The HTTP `Link` header (RFC 8288), parsed without regular expressions so that commas and
 * semicolons inside `<...>` or quoted strings do not split a link. Pure and tolerant: a
 * malformed link-value is skipped, never thrown on.
 */

export interface LinkValue {
  /** The URI reference between `<` and `>`, as sent (resolve it against the request URL). */
  readonly target: string;
  /** Relation types, lowercased (`rel="next last"` gives two). */
  readonly rel: readonly string[];
  /** Other parameters, names lowercased; the first occurrence of a name wins. */
  readonly params: Readonly<Record<string, string>>;
}

const WHITESPACE = /\s/;

class Reader {
  at = 0;
  constructor(readonly text: string) {}
  get done(): boolean {
    return this.at >= this.text.length;
  }
  peek(): string {
    return this.text.charAt(this.at);
  }
  skipSpace(): void {
    while (!this.done && WHITESPACE.test(this.peek())) this.at += 1;
  }
  /** Characters up to (not including) any of `stops`. */
  until(stops: string): string {
    const start = this.at;
    while (!this.done && !stops.includes(this.peek())) this.at += 1;
    return this.text.slice(start, this.at);
  }
  /** A quoted-string (the reader is on the opening quote), backslash escapes resolved. */
  quoted(): string {
    let out = '';
    for (this.at += 1; !this.done; this.at += 1) {
      const c = this.peek();
      if (c === '"') {
        this.at += 1;
        return out;
      }
      if (c === '\\') this.at += 1;
      out += this.peek();
    }
    return out;
  }
  /** Moves past the next comma that is outside `<>` and quotes: the end of a broken link-value. */
  skipLinkValue(): void {
    while (!this.done && this.peek() !== ',') {
      if (this.peek() === '"') this.quoted();
      else if (this.peek() === '<') this.until('>');
      else this.at += 1;
    }
  }
}

function readParams(r: Reader): Record<string, string> {
  const params: Record<string, string> = {};
  for (r.skipSpace(); r.peek() === ';'; r.skipSpace()) {
    r.at += 1;
    r.skipSpace();
    const name = r.until('=;,').trim().toLowerCase();
    let value = '';
    if (r.peek() === '=') {
      r.at += 1;
      r.skipSpace();
      value = r.peek() === '"' ? r.quoted() : r.until(';,').trim();
    }
    if (name !== '' && !(name in params)) params[name] = value;
  }
  return params;
}

export function parseLinkHeader(value: string | undefined): LinkValue[] {
  const links: LinkValue[] = [];
  if (!value) return links;
  const r = new Reader(value);
  while (!r.done) {
    r.skipSpace();
    if (r.peek() === ',') {
      r.at += 1;
      continue;
    }
    if (r.peek() !== '<') {
      r.skipLinkValue();
      continue;
    }
    r.at += 1;
    const target = r.until('>');
    if (r.done) break;
    r.at += 1;
    const params = readParams(r);
    const rel = (params['rel'] ?? '').toLowerCase().split(/\s+/).filter((t) => t !== '');
    links.push({ target: target.trim(), rel, params });
    r.skipLinkValue();
  }
  return links;
}

/** The target of the first link with relation `next`, if any. */
export function nextLinkTarget(value: string | undefined): string | undefined {
  return parseLinkHeader(value).find((link) => link.rel.includes('next'))?.target;
}
