/**
 * A fault rule's path glob (`*` any characters but `/`, `**` any characters, trailing slashes
 * ignored on both sides), matched in time proportional to path length times glob length. A
 * regular expression with one `[^/]*` per `*` backtracks exponentially: `/*a*a*...*b` against
 * `/aaaa...` (3,000 characters) held the sandbox's only thread, so not even SIGTERM was handled.
 */

type Token = { readonly kind: 'char'; readonly char: string } | { readonly kind: 'star' | 'globstar' | 'slashes' };

export interface PathGlob {
  test(path: string): boolean;
}

function tokenize(glob: string): Token[] {
  const body = glob.replace(/\/+$/, '');
  const tokens: Token[] = [];
  for (let i = 0; i < body.length; i += 1) {
    if (body[i] !== '*') tokens.push({ kind: 'char', char: body[i]! });
    else if (body[i + 1] === '*') {
      tokens.push({ kind: 'globstar' });
      i += 1;
    } else tokens.push({ kind: 'star' });
  }
  // An empty body is the base itself; either way any number of trailing slashes may follow.
  if (tokens.length === 0) tokens.push({ kind: 'char', char: '/' });
  tokens.push({ kind: 'slashes' });
  return tokens;
}

const repeats = (token: Token | undefined): boolean => token !== undefined && token.kind !== 'char';

/** `states` with every position reachable from them without reading a character (a repeat may match nothing). */
function closeOver(tokens: readonly Token[], states: Set<number>): Set<number> {
  for (const state of states) if (repeats(tokens[state])) states.add(state + 1);
  return states;
}

/** Whether `token` reads `char` (a repeating token stays where it is). */
function reads(token: Token, char: string): boolean {
  if (token.kind === 'char') return token.char === char;
  if (token.kind === 'star') return char !== '/';
  if (token.kind === 'slashes') return char === '/';
  return true;
}

/** A set-of-states walk (Thompson's construction): no backtracking, whatever the glob. */
export function compileGlob(glob: string): PathGlob {
  const tokens = tokenize(glob);
  return {
    test(path: string): boolean {
      let states = closeOver(tokens, new Set([0]));
      for (const char of path) {
        const next = new Set<number>();
        for (const state of states) {
          const token = tokens[state];
          if (token === undefined || !reads(token, char)) continue;
          next.add(repeats(token) ? state : state + 1);
        }
        if (next.size === 0) return false;
        states = closeOver(tokens, next);
      }
      return states.has(tokens.length);
    },
  };
}
