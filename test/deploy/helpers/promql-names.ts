/**
 * The metric names a PromQL expression reads, found by a small lexer: identifiers that are not
 * functions, aggregations, keywords, label names (inside `{}` or `by (...)`-style lists) or
 * durations. Enough for the expressions we write; the expressions' syntax itself is checked by
 * promtool and a real Prometheus, not here.
 */

const KEYWORDS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'group',
  'stddev',
  'stdvar',
  'count',
  'count_values',
  'bottomk',
  'topk',
  'quantile',
  'limitk',
  'limit_ratio',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
  'and',
  'or',
  'unless',
  'atan2',
  'inf',
  'nan',
  'start',
  'end',
]);
const LABEL_LIST_OPENERS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);

type Token = { kind: 'ident' | 'string' | 'number' | 'punct'; text: string };

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /\s+|#[^\n]*|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`|(\d+(?:\.\d+)?(?:e[+-]?\d+)?(?:ms|[smhdwy])?)+|([A-Za-z_:][A-Za-z0-9_:]*)|(=~|!~|!=|==|<=|>=|[-+*/%^<>=(){}[\],@:])/gy;
  let match: RegExpExecArray | null;
  let last = 0;
  while ((match = pattern.exec(expr)) !== null) {
    last = pattern.lastIndex;
    const text = match[0];
    if (/^\s/.test(text) || text.startsWith('#')) continue;
    if (/^["'`]/.test(text)) tokens.push({ kind: 'string', text: text.slice(1, -1) });
    else if (match[1] !== undefined) tokens.push({ kind: 'number', text });
    else if (match[2] !== undefined) tokens.push({ kind: 'ident', text });
    else tokens.push({ kind: 'punct', text });
    if (pattern.lastIndex === match.index) break;
  }
  if (last !== expr.length) throw new Error(`cannot lex PromQL at offset ${last}: ${JSON.stringify(expr.slice(last, last + 30))}`);
  return tokens;
}

/** Skips a parenthesised list starting at `open` (the index of `(`); returns the index after `)`. */
function skipList(tokens: readonly Token[], open: number): number {
  let i = open + 1;
  while (i < tokens.length && tokens[i]?.text !== ')') i += 1;
  return i + 1;
}

export function metricNames(expr: string): Set<string> {
  const tokens = tokenize(expr);
  const names = new Set<string>();
  let braces = 0;
  let brackets = 0;
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    const next = tokens[i + 1];
    if (token.kind === 'punct') {
      if (token.text === '{') braces += 1;
      else if (token.text === '}') braces -= 1;
      else if (token.text === '[') brackets += 1;
      else if (token.text === ']') brackets -= 1;
      continue;
    }
    if (token.kind !== 'ident' || brackets > 0) continue;
    if (braces > 0) {
      // {__name__="x"} names a metric through a label matcher.
      const value = tokens[i + 2];
      if (token.text === '__name__' && next?.text === '=' && value?.kind === 'string') names.add(value.text);
      continue;
    }
    if (LABEL_LIST_OPENERS.has(token.text) && next?.text === '(') {
      i = skipList(tokens, i + 1) - 1;
      continue;
    }
    if (KEYWORDS.has(token.text.toLowerCase()) || next?.text === '(') continue;
    names.add(token.text);
  }
  return names;
}
