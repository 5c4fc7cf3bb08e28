/**
 * Where a project keeps the toolkit's code. New projects get one folder the toolkit owns,
 * `src/repair-service/` (`contract/`, `client/`, `checklist/`). Projects generated before the
 * toolkit recorded its files have those three folders straight under `src/`, and the
 * integrator's own code imports them there; an upgrade keeps them in place (and records that
 * folder) rather than moving code their imports point at. Those two are the only toolkit
 * folders there are: a run replaces or removes files inside them and nowhere else, but for
 * `TOOLKIT_ROOT_FILES`, named one by one.
 */
import { posix } from 'node:path';
import type { ToolkitRecord } from './toolkit-record.js';

export const TOOLKIT_DIR = 'src/repair-service';
/** The toolkit's folder in projects generated before the record existed. */
export const LEGACY_TOOLKIT_DIR = 'src';
/** The folders inside the toolkit folder; each comes from the `api/` folder of the same name. */
export const TOOLKIT_PARTS = ['contract', 'client', 'checklist'] as const;
/** The OpenAPI document of API v1, at the root: where Postman, Insomnia and Prism are pointed. */
export const OPENAPI_FILE = 'openapi.yaml';
/**
 * Toolkit files at the project root, where the tools that read them look. Exactly these paths,
 * whatever the toolkit folder: a record naming any other file outside it is still refused.
 */
export const TOOLKIT_ROOT_FILES: readonly string[] = [OPENAPI_FILE];

export type ToolkitLayout =
  /** `.yo-rc.json` says where it wrote the toolkit. */
  | { readonly kind: 'recorded'; readonly dir: string }
  /** No record, but `src/contract` etc. exist: a project from before the record. */
  | { readonly kind: 'legacy'; readonly dir: string }
  | { readonly kind: 'new'; readonly dir: string };

const isToolkitDir = (dir: string): boolean => dir === TOOLKIT_DIR || dir === LEGACY_TOOLKIT_DIR;

/** Pure: `exists` answers for project-relative paths. A recorded folder that is not a toolkit folder is not followed (the plan refuses it). */
export function chooseLayout(
  record: ToolkitRecord | undefined,
  exists: (path: string) => boolean,
): ToolkitLayout {
  if (record && isToolkitDir(record.dir)) return { kind: 'recorded', dir: record.dir };
  const legacy = TOOLKIT_PARTS.some((part) => exists(`${LEGACY_TOOLKIT_DIR}/${part}/index.ts`));
  return legacy ? { kind: 'legacy', dir: LEGACY_TOOLKIT_DIR } : { kind: 'new', dir: TOOLKIT_DIR };
}

/** `dir/contract/…`, `dir/client/…`, `dir/checklist/…` (no `.`, `..` or empty segment on the way) or a root file. */
export function inToolkit(path: string, dir: string): boolean {
  if (TOOLKIT_ROOT_FILES.includes(path)) return true;
  if (path.split(/[\\/]/).some((part) => part === '' || part === '.' || part === '..'))
    return false;
  return TOOLKIT_PARTS.some((part) => path.startsWith(`${dir}/${part}/`));
}

/** What a record names that no run may touch: a folder that is not a toolkit folder, or files outside its toolkit folder. */
export function strayRecordPaths(record: ToolkitRecord | undefined): string[] {
  if (record === undefined) return [];
  const stray = Object.keys(record.files).filter((path) => !inToolkit(path, record.dir));
  return isToolkitDir(record.dir)
    ? stray
    : [`${record.dir}/ (recorded as the toolkit folder)`, ...stray];
}

/**
 * The templates import the toolkit from `src/repair-service/`. For a project that keeps it
 * elsewhere, a template written there (a file the integrator deleted and gets back) must
 * import from that folder instead: rewrite the specifiers, nothing else.
 */
export function relocateImports(text: string, dir: string): string {
  if (dir === TOOLKIT_DIR) return text;
  const rel = posix.relative('src', dir);
  const replacement = rel === '' ? '' : `${rel}/`;
  return text.replace(
    /(from\s+['"](?:\.{1,2}\/)+(?:src\/)?)repair-service\//g,
    (_match, head: string) => `${head}${replacement}`,
  );
}
