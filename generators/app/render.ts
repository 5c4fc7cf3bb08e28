/**
 * Turns the template tree into the files of a project: `*.hbs` rendered with handlebars
 * (`noEscape`, `strict`, helpers `json`, `jsonText`, `code`, `actionsExpr` and `envLine`),
 * everything else copied byte for byte, dotfiles renamed on write. Pure apart from reading the
 * templates (and our package.json for the dependency versions); writing is the generator's job.
 *
 * Nothing an answer holds can add a line to a rendered file: the answers are validated before
 * this, and the context refuses any answer with a control character; `.env` values go through
 * `envFileValue` (env-value.ts): quoted so that neither Node's `process.loadEnvFile` nor a shell
 * that sources the file changes or runs anything in them.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import Handlebars from 'handlebars';
import { authHeader } from '../../api/contract/index.js';
import { isLoopback } from '../../lib/index.js';
import { SANDBOX_DEFAULT_BASE_URL } from '../../sandbox/index.js';
import { type Answers, DEFAULT_ENV_PREFIX, PLACEHOLDER_PRODUCTION_BASE_URL } from './answers.js';
import { CONTROL, envFileValue, envValueProblem } from './env-value.js';
import { TOOLKIT_DIR, relocateImports } from './layout.js';
import { type RenderedFile, listFiles } from './shipped.js';

/** What the generated project needs at run time and to build and test, at the ranges of our package.json (written once). */
export const RUNTIME_DEPENDENCIES = ['undici', 'p-retry'] as const;
export const DEV_DEPENDENCIES = ['typescript', 'vitest', '@types/node', 'msw'] as const;
/**
 * The Node LTS lines in support (22 until April 2027, 24 until April 2028, 26 until April 2029):
 * the generated CI workflow's matrix, and the lines test/runtime/node-lines.test.ts runs the
 * toolkit on. Node 20 (end of life) is the one `engines` still admits, for machines not yet moved.
 */
export const NODE_LINES = [22, 24, 26] as const;
/** Run with npx from the README (a mock server from `openapi.yaml`), never installed: the version our own tests run. */
const PRISM = '@stoplight/prism-cli';

interface OurPackageJson {
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly overrides?: Record<string, string>;
  readonly engines?: { node?: string };
}

function pick(names: readonly string[], pkg: OurPackageJson): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const range = pkg.dependencies?.[name] ?? pkg.devDependencies?.[name];
    if (range === undefined)
      throw new Error(`our package.json does not list ${name}; the generated project needs it`);
    out[name] = range;
  }
  return out;
}

export type DependencyVersions = ReturnType<typeof versionsFrom>;

export function versionsFrom(pkg: OurPackageJson) {
  const nodeEngine = pkg.engines?.node;
  if (nodeEngine === undefined) throw new Error('our package.json has no engines.node');
  return {
    dependencies: pick(RUNTIME_DEPENDENCIES, pkg),
    devDependencies: pick(DEV_DEPENDENCIES, pkg),
    // Ours, so a project resolves what we test with: vite (vitest's) 8.4.0 declares an
    // unpublished optional dependency, and npm 11.16+ then writes a lockfile its own `npm ci`
    // refuses (npm/cli#9846); a new project's CI would fail on its first run.
    overrides: pkg.overrides ?? {},
    nodeEngine,
    // `@stoplight/prism-cli@<ours>`: later versions need a newer Node than ours.
    prism: `${PRISM}@${pick([PRISM], pkg)[PRISM]}`,
  };
}

export function readVersions(root: string): DependencyVersions {
  return versionsFrom(
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as OurPackageJson,
  );
}

/**
 * Text as a Markdown code span (CommonMark): fenced by one backtick more than its longest run,
 * padded where the parser would otherwise eat a backtick or an edge space; in a table cell
 * (`cell`), `|` is escaped, which GFM requires even inside code.
 */
export function codeSpan(text: string, cell = false): string {
  const fence = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  const pad = /^`|`$|^ .*[^ ].* $/.test(text) ? ' ' : '';
  const body = cell ? text.replaceAll('|', '\\|') : text;
  return `${fence}${pad}${body}${pad}${fence}`;
}

/**
 * `NAME=value` as one line of a `.env` file. A value no quoting keeps literal for both Node's
 * reader and a shell (env-value.ts) becomes a comment saying so: only the tenant can get here
 * (the base URLs are refused by their flags), and src/config.ts defaults to it anyway.
 */
export function envLine(name: string, value: string): string {
  // A control character is refused (envFileValue throws): nothing an answer holds adds a line.
  if (!CONTROL.test(value) && envValueProblem(value) !== undefined)
    return `# ${name}: the default in src/config.ts (its value holds quotes no .env line keeps literal)`;
  return `${name}=${envFileValue(value, name)}`;
}

/** Stored without the dot: npm drops `.gitignore` from packages, and git ignores `.env.*` here. */
const RENAMES: Readonly<Record<string, string>> = {
  gitignore: '.gitignore',
  'env.example': '.env.example',
};

export type TemplateContext = ReturnType<typeof templateContext>;

/** The answers and what the templates derive from them; `toolkitDir`: where the toolkit goes (layout.ts). */
export function templateContext(
  answers: Answers,
  versions: DependencyVersions,
  facts: { readonly toolkitDir: string } = { toolkitDir: TOOLKIT_DIR },
) {
  // Answers are validated before this; a line break that slipped past would add lines to every file.
  const unsafe = Object.entries(answers).flatMap(([name, value]) =>
    typeof value === 'string' && CONTROL.test(value) ? [name] : [],
  );
  if (unsafe.length > 0)
    throw new Error(
      `answer ${unsafe.join(', ')} contains a control character (a line break?); refusing to render it into the project's files`,
    );
  const p = answers.envPrefix;
  return {
    ...answers,
    ...facts,
    versions,
    nodeLines: NODE_LINES,
    // The generated config refuses to use the placeholder.
    placeholderProductionBaseUrl: PLACEHOLDER_PRODUCTION_BASE_URL,
    productionIsPlaceholder: answers.productionBaseUrl === PLACEHOLDER_PRODUCTION_BASE_URL,
    sandboxBaseUrl: SANDBOX_DEFAULT_BASE_URL,
    // CI cannot reach a test base URL on this machine.
    testIsLocalSandbox: isLoopback(URL.parse(answers.testBaseUrl)?.hostname ?? ''),
    // `repairmon sandbox` prints its export lines with the default prefix.
    envPrefixIsDefault: answers.envPrefix === DEFAULT_ENV_PREFIX,
    clientImport: `./${posix.join(posix.relative('src', facts.toolkitDir), 'client', 'index.js')}`,
    authHeaderExample: ((h) => `${h.name}: ${h.value}`)(
      authHeader(answers.authScheme, '<API_KEY>'),
    ),
    env: {
      selector: `${p}_ENV`,
      tenant: `${p}_TENANT`,
      testBaseUrl: `${p}_TEST_BASE_URL`,
      testKey: `${p}_TEST_KEY`,
      productionBaseUrl: `${p}_PRODUCTION_BASE_URL`,
      productionKey: `${p}_PRODUCTION_KEY`,
      caFile: `${p}_CA_FILE`,
    },
  };
}

function outputPath(templatePath: string): string {
  const withoutHbs = templatePath.endsWith('.hbs')
    ? templatePath.slice(0, -'.hbs'.length)
    : templatePath;
  const parts = withoutHbs.split('/');
  const last = parts.pop() ?? '';
  return [...parts, RENAMES[last] ?? last].join('/');
}

function createHandlebars(): typeof Handlebars {
  const hb = Handlebars.create();
  // `{{json value indent=2}}` indents continuation lines so nested JSON lines up with its key.
  hb.registerHelper('json', (value: unknown, options: { hash?: { indent?: number } }) => {
    const pad = ' '.repeat(options.hash?.indent ?? 0);
    return JSON.stringify(value, null, 2).replace(/\n/g, `\n${pad}`);
  });
  // `"… {{jsonText tenant}}"`: a value inside a JSON string literal, its quotes and `\` escaped.
  hb.registerHelper('jsonText', (value: unknown) => JSON.stringify(String(value)).slice(1, -1));
  // `{{code tenant}}`: a Markdown code span whatever the text holds; `cell=true` in a table row.
  hb.registerHelper('code', (value: unknown, options: { hash?: { cell?: boolean } }) =>
    codeSpan(String(value), options.hash?.cell === true),
  );
  // `{{envLine env.tenant tenant}}`: `NAME=value` as one line of a .env file, whatever the value holds.
  hb.registerHelper('envLine', (name: unknown, value: unknown) =>
    envLine(String(name), String(value)),
  );
  // GitHub Actions expressions use `${{ }}`, which handlebars would read as its own.
  hb.registerHelper(
    'actionsExpr',
    (...args: unknown[]) => `\${{ ${args.slice(0, -1).map(String).join('')} }}`,
  );
  return hb;
}

export function renderTemplate(source: string, context: TemplateContext, name: string): string {
  try {
    return createHandlebars().compile(source, { noEscape: true, strict: true })(context);
  } catch (error) {
    throw new Error(`template ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function renderProject(templateRoot: string, context: TemplateContext): RenderedFile[] {
  const files: RenderedFile[] = [];
  for (const path of listFiles(templateRoot)) {
    const target = outputPath(path);
    if (target.startsWith('.github/') && !context.githubActions) continue;
    const raw = readFileSync(join(templateRoot, path));
    let contents = path.endsWith('.hbs')
      ? Buffer.from(renderTemplate(raw.toString('utf8'), context, path), 'utf8')
      : raw;
    // Only for a project that keeps the toolkit elsewhere (layout.ts); otherwise byte for byte.
    if (context.toolkitDir !== TOOLKIT_DIR && target.endsWith('.ts'))
      contents = Buffer.from(
        relocateImports(contents.toString('utf8'), context.toolkitDir),
        'utf8',
      );
    files.push({ path: target, contents });
  }
  return files;
}
