/**
 * Which npm packages the monitor image's code can load: a walk of the TypeScript sources from
 * the CLI entry, following static and dynamic imports, stopping at the commands that need the
 * generator (the image does not ship it). Type-only imports (erased at build) do not
 * count. Dev-time only: it needs typescript.
 */
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** The CLI's entry: bin/repairmon.js only imports its compiled twin. */
export const MONITOR_ENTRY = 'cli/index.ts';

/**
 * `repairmon new` and `upgrade` run the generator (handlebars, @yeoman/adapter); the image
 * answers them with a message instead (cli/commands/index.ts), so the walk does not enter them.
 */
export const GENERATOR_COMMANDS = ['cli/commands/new.ts', 'cli/commands/upgrade.ts'];

/** The generator's own packages; none may reach the image. */
export const GENERATOR_PACKAGES = ['@yeoman/adapter', 'yeoman-generator', 'handlebars'];

const BUILTINS = new Set(builtinModules);

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
export function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Whether tsc keeps an import or re-export: not `import type`, and not made only of `type` names. */
function keptAtRuntime(node) {
  const onlyTypeNames = (named) =>
    named !== undefined && 'elements' in named && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
  if (ts.isExportDeclaration(node)) return !node.isTypeOnly && !onlyTypeNames(node.exportClause);
  const clause = node.importClause;
  if (!clause) return true; // `import 'x'`: kept for its side effects
  if (clause.isTypeOnly) return false;
  return clause.name !== undefined || !onlyTypeNames(clause.namedBindings);
}

/**
 * Specifiers a file loads: imports and re-exports (type-only ones are erased at build), and
 * `import('literal')` anywhere unless `dynamic` is off. A value import used only as a type is
 * counted too: over-counting can only make the check stricter.
 */
function importsOf(file, text, dynamic) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false);
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (keptAtRuntime(node)) found.push(node.moduleSpecifier.text);
      return;
    }
    if (dynamic && ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) found.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `./x.js` in a .ts source means `./x.ts` (NodeNext); a real .js file (generators/app/index.js) is itself. */
function resolveRelative(root, from, specifier) {
  const target = join(dirname(join(root, from)), specifier);
  const source = target.replace(/\.js$/, '.ts');
  if (existsSync(source)) return relative(root, source);
  if (existsSync(target)) return relative(root, target);
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

/**
 * Walks from `entries`, skipping `stopAt` files. Returns the files reached and, per package,
 * the first file that imports it (so a failure can say where the import is).
 */
export function importGraph(root, { entries = [MONITOR_ENTRY], stopAt = GENERATOR_COMMANDS, dynamic = true } = {}) {
  const seen = new Set();
  const packages = new Map();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file) || stopAt.includes(file)) continue;
    seen.add(file);
    for (const specifier of importsOf(file, readFileSync(join(root, file), 'utf8'), dynamic)) {
      if (specifier.startsWith('.')) queue.push(resolveRelative(root, file, specifier));
      else if (specifier.startsWith('node:') || BUILTINS.has(specifier)) continue;
      else if (!packages.has(packageName(specifier))) packages.set(packageName(specifier), file);
    }
  }
  return { files: [...seen].sort(), packages };
}
