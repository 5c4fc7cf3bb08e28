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

/** From our package root to the project's toolkit folder; `exclude`: sub-folders and files not shipped. */
const SHIPPED_DIRS = [
  // The sandbox's server side, and the tools' settings for the spec's open points, stay here.
  { from: 'api/contract', to: 'contract', exclude: ['server', 'readings.ts'] },
  { from: 'api/client', to: 'client', exclude: [] },
  { from: 'api/checklist', to: 'checklist', exclude: [] },
] as const;

/** Every file below `root` as a sorted POSIX path; a stray node_modules or dist is not ours. */
export function listFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join(posix.sep))
    .filter((path) => !/(?:^|\/)(?:node_modules|dist)\//.test(path))
    .sort();
}

/** Every shipped file as `api/` holds it (no header), in a stable order, with its path in the project. */
export function shippedFiles(
  packageRoot: string,
  toolkitDir: string = TOOLKIT_DIR,
): RenderedFile[] {
  return SHIPPED_DIRS.flatMap((dir) => {
    const root = join(packageRoot, dir.from);
    const excluded = (rel: string): boolean =>
      dir.exclude.some((x: string) => rel === x || rel.startsWith(`${x}/`));
    const files = listFiles(root).filter((rel) => /\.(?:ts|md)$/.test(rel) && !excluded(rel));
    return files.map((rel) => ({
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
function openApiYaml(answers: Pick<Answers, 'testBaseUrl' | 'productionBaseUrl'>): Buffer {
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
