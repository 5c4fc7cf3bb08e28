/**
 * The toolkit code a generated project gets: the API layer's shipped folders, copied from
 * `api/` when the project is rendered, so a project holds exactly what the monitor and the
 * diagnosis run on. `api/contract/server/` is the sandbox's and stays here. Whatever files
 * `api/` holds are shipped (TypeScript and Markdown), so a new file there needs no change here.
 * Opt-in modules (`OPT_IN_FILES`) are shipped only when the project's answers ask for them.
 * With them goes `openapi.yaml`, the OpenAPI document of what API v1 guarantees (every point
 * the spec leaves open stays open), for the project's own base URLs.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { openApiDocument, serializeOpenApi } from '../../api/openapi/index.js';
import type { Answers } from './answers.js';
import { OPENAPI_FILE, TOOLKIT_DIR } from './layout.js';
import { withHeader } from './toolkit-record.js';

/** A file of the project: POSIX path relative to its root, and contents. */
export interface RenderedFile {
  readonly path: string;
  readonly contents: Buffer;
}

export interface ShippedDir {
  /** Below our package root. */
  readonly from: string;
  /** Below the project's toolkit folder. */
  readonly to: string;
  /** Sub-folders and files of `from` that are not shipped. */
  readonly exclude?: readonly string[];
}

export const SHIPPED_DIRS: readonly ShippedDir[] = [
  // The sandbox's server side, and the tools' settings for the spec's open points, stay here.
  { from: 'api/contract', to: 'contract', exclude: ['server', 'readings.ts'] },
  { from: 'api/client', to: 'client' },
  { from: 'api/checklist', to: 'checklist' },
];

function walk(root: string, dir: string, exclude: readonly string[], out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    const rel = relative(root, full).split(sep).join(posix.sep);
    if (exclude.includes(rel)) continue;
    if (entry.isDirectory()) walk(root, full, exclude, out);
    else if (entry.isFile() && (entry.name.endsWith('.ts') || entry.name.endsWith('.md')))
      out.push(rel);
  }
}

/** Every shipped file as `api/` holds it (no header), in a stable order, with its path in the project. */
export function shippedFiles(
  packageRoot: string,
  toolkitDir: string = TOOLKIT_DIR,
  dirs: readonly ShippedDir[] = SHIPPED_DIRS,
): RenderedFile[] {
  return dirs.flatMap((dir) => {
    const root = join(packageRoot, dir.from);
    const files: string[] = [];
    walk(root, root, dir.exclude ?? [], files);
    return files.sort().map((rel) => ({
      path: `${toolkitDir}/${dir.to}/${rel}`,
      contents: readFileSync(join(root, rel)),
    }));
  });
}

export type OptIn = 'pagination' | 'parse';

/** Opt-in modules for points the spec does not show, by the answers that add them (paginate.ts's `parse` option uses parse.ts). */
export const OPT_IN_FILES: Readonly<Record<string, readonly OptIn[]>> = {
  'client/paginate.ts': ['pagination'],
  'client/parse.ts': ['parse', 'pagination'],
};

/**
 * The document of what the spec guarantees (no reading chosen: the generator asks for none),
 * with the project's test and production base URLs; `repairmon openapi --dialect` narrows it.
 */
export function openApiYaml(answers: Pick<Answers, 'testBaseUrl' | 'productionBaseUrl'>): Buffer {
  const document = openApiDocument(
    {},
    {
      test: answers.testBaseUrl,
      production: answers.productionBaseUrl,
    },
  );
  return Buffer.from(serializeOpenApi(document, 'yaml'), 'utf8');
}

/** The toolkit's files as a project with these answers gets them: each headed with "generated: do not edit". */
export function toolkitFiles(
  packageRoot: string,
  toolkitDir: string,
  answers: Pick<Answers, OptIn | 'testBaseUrl' | 'productionBaseUrl'>,
): RenderedFile[] {
  const wanted = (path: string): boolean => {
    const answersFor = OPT_IN_FILES[path.slice(toolkitDir.length + 1)];
    return answersFor === undefined || answersFor.some((answer) => answers[answer]);
  };
  return [
    ...shippedFiles(packageRoot, toolkitDir).filter((file) => wanted(file.path)),
    { path: OPENAPI_FILE, contents: openApiYaml(answers) },
  ].map((file) => ({
    path: file.path,
    contents: withHeader(file.path, file.contents),
  }));
}
