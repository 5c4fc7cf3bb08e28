/**
 * What `.yo-rc.json` remembers about the toolkit code it wrote, next to the answers:
 *
 *   "toolkit": { "version": "0.1.0", "dir": "src/repair-service",
 *                "files": { "src/repair-service/client/index.ts": "sha256-…", … } }
 *
 * The hashes are of the files as written (header included), so an upgrade can tell a file
 * the integrator edited from one it may replace. Read leniently: a missing or malformed record
 * means "nothing known", which the upgrade plan treats with the caution of an old project.
 */
export interface ToolkitRecord {
  /** Version of generator-repair-service that wrote the toolkit files. */
  readonly version: string;
  /** Folder (relative to the project) holding `contract/`, `client/` and `checklist/`. */
  readonly dir: string;
  /** Project-relative POSIX path -> `sha256-<hex>` of the contents written. */
  readonly files: Readonly<Record<string, string>>;
}

export const RECORD_KEY = 'toolkit';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A safe project-relative path: no absolute path, no `..`, so a crafted record cannot aim outside the project. */
export function isProjectPath(path: string): boolean {
  return path !== '' && !path.startsWith('/') && !/^[A-Za-z]:/.test(path) && !path.split(/[\\/]/).some((p) => p === '..' || p === '');
}

export function parseToolkitRecord(section: unknown): ToolkitRecord | undefined {
  if (!isObject(section)) return undefined;
  const record = section[RECORD_KEY];
  if (!isObject(record)) return undefined;
  const { version, dir, files } = record;
  if (typeof version !== 'string' || typeof dir !== 'string' || !isProjectPath(dir) || !isObject(files)) return undefined;
  const out: Record<string, string> = {};
  for (const [path, hash] of Object.entries(files)) {
    if (typeof hash !== 'string' || !isProjectPath(path)) return undefined;
    out[path] = hash;
  }
  return { version, dir, files: out };
}
