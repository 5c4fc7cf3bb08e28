/**
 * YAML text -> plain value, or every problem with its line and column; never a throw. The yaml
 * library throws from `toJS()` on an alias to no anchor and on more than 100 aliases (its alias
 * bomb guard, which also refuses a plain config whose many keys share one anchor). So aliases
 * are resolved here first, and the guard is a bound on the expanded size, what a bomb costs.
 */
import YAML, { type CST, type Document, LineCounter, type Node, Parser, isAlias, isCollection, isPair } from 'yaml';
import { shownValue } from './secret-shape.js';

/** One problem in a file, located by its path such as `targets[1].keys[0].tenant`. */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
}

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly ConfigIssue[] };

/** Values (scalars and collections) once aliases are expanded; far beyond any real file. */
const MAX_EXPANDED_VALUES = 1_000_000;
/**
 * Collections inside collections; a real file is under 10 deep. The library's composer recurses
 * and overflows the stack near 1,000, after which V8 can abort the process on a later parse, so
 * depth is measured first on the concrete syntax tree, which its parser builds without recursion.
 */
const MAX_DEPTH = 100;

interface Walk {
  readonly anchors: Map<string, Node>;
  /** Anchored nodes still being walked: an alias to one is a cycle. */
  readonly open: Set<Node>;
  readonly sizes: Map<Node, number>;
  readonly issues: ConfigIssue[];
  readonly at: (node: Node) => { line: number; where: string };
}

const capped = (n: number): number => Math.min(n, MAX_EXPANDED_VALUES + 1);

function aliasSize(alias: YAML.Alias, walk: Walk): number {
  const name = shownValue(alias.source);
  const target = walk.anchors.get(alias.source);
  const { line, where } = walk.at(alias);
  if (target === undefined) {
    walk.issues.push({ path: `line ${line}`, message: `alias *${name} refers to no anchor &${name} defined before it ${where}` });
    return 1;
  }
  if (walk.open.has(target)) {
    walk.issues.push({ path: `line ${line}`, message: `alias *${name} is inside its own anchor &${name} (a cycle) ${where}` });
    return 1;
  }
  return walk.sizes.get(target) ?? 1;
}

/** Pre-order, like the library: an anchor counts from its node on, and a later one of the same name replaces it. */
function expandedSize(node: unknown, walk: Walk): number {
  if (isPair(node)) return capped(expandedSize(node.key, walk) + expandedSize(node.value, walk));
  if (isAlias(node)) return aliasSize(node, walk);
  if (!YAML.isNode(node)) return 0;
  if (node.anchor) walk.anchors.set(node.anchor, node);
  walk.open.add(node);
  let size = 1;
  if (isCollection(node)) for (const item of node.items) size = capped(size + expandedSize(item, walk));
  walk.open.delete(node);
  walk.sizes.set(node, size);
  return size;
}

function aliasIssues(doc: Document.Parsed, lines: LineCounter): ConfigIssue[] {
  const walk: Walk = {
    anchors: new Map(),
    open: new Set(),
    sizes: new Map(),
    issues: [],
    at: (node) => {
      const { line, col } = lines.linePos(node.range?.[0] ?? 0);
      return { line, where: `at line ${line}, column ${col}` };
    },
  };
  const size = expandedSize(doc.contents, walk);
  if (size > MAX_EXPANDED_VALUES) {
    walk.issues.push({
      path: '',
      message: `the document expands to more than ${MAX_EXPANDED_VALUES} values once its aliases are resolved (aliases of aliases multiply); write the shared parts out or alias them less deeply`,
    });
  }
  return walk.issues;
}

/** The offset of the first collection nested deeper than MAX_DEPTH, walked without recursion. */
function tooDeepAt(tokens: readonly CST.Token[]): number | undefined {
  const stack: Array<{ token: CST.Token | undefined; depth: number }> = tokens.map((token) => ({ token, depth: 0 }));
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { token, depth } = next;
    if (token === undefined) continue;
    if (token.type === 'document') stack.push({ token: token.value, depth });
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth >= MAX_DEPTH) return token.offset;
    for (const item of token.items) stack.push({ token: item.key ?? undefined, depth: depth + 1 }, { token: item.value, depth: depth + 1 });
  }
  return undefined;
}

function depthIssues(text: string): ConfigIssue[] {
  const lines = new LineCounter();
  const offset = tooDeepAt([...new Parser(lines.addNewLine).parse(text)]);
  if (offset === undefined) return [];
  const { line, col } = lines.linePos(offset);
  return [{ path: `line ${line}`, message: `collections nested more than ${MAX_DEPTH} deep at line ${line}, column ${col}` }];
}

/** `line N: <first line of the library's message>`: the message already ends in its column. */
function libraryIssues(doc: Document.Parsed): ConfigIssue[] {
  return [...doc.errors, ...doc.warnings].map((e) => ({
    path: `line ${e.linePos?.[0]?.line ?? '?'}`,
    message: (e.message.split('\n')[0] ?? e.message).replace(/:$/, ''),
  }));
}

export function decodeYaml(text: string): Checked<unknown> {
  try {
    const deep = depthIssues(text);
    if (deep.length > 0) return { ok: false, issues: deep };
    const lines = new LineCounter();
    const doc = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter: lines });
    const syntax = libraryIssues(doc);
    if (syntax.length > 0) return { ok: false, issues: syntax };
    const aliases = aliasIssues(doc, lines);
    if (aliases.length > 0) return { ok: false, issues: aliases };
    // Our walk bounds the expansion, so the library's own alias cap can go.
    return { ok: true, value: doc.toJS({ maxAliasCount: -1 }) as unknown };
  } catch (error) {
    // Not expected after the checks above; a file must still never crash a reload.
    const why =
      error instanceof RangeError
        ? 'it is nested too deeply'
        : error instanceof Error
          ? (error.message.split('\n')[0] ?? '')
          : String(error);
    return { ok: false, issues: [{ path: '', message: `cannot read the YAML (${why})` }] };
  }
}
