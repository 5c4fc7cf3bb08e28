/**
 * How a project remembers what the generator wrote: our section of `.yo-rc.json` (the answers
 * and the toolkit record), and the one-line notice each toolkit file starts with.
 *
 *   "toolkit": { "version": "0.1.0", "dir": "src/repair-service",
 *                "files": { "src/repair-service/client/index.ts": "sha256-…", … },
 *                "integratorFiles": { "README.md": "sha256-…", … } }
 *
 * The toolkit version is recorded here once, never in the files, so a release that changes no
 * toolkit code changes no toolkit file. The hashes are of the files as written, so an upgrade
 * tells a file the integrator edited from one it may replace (`files`), and an unedited file of
 * theirs from an edited one (`integratorFiles`: only ever used for wording, never to write).
 * Read leniently: a malformed record means "nothing known", which the plan treats with the
 * caution of an old project. Paths are checked by the plan (upgrade-plan.ts), which refuses any
 * outside the toolkit folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const YO_RC = '.yo-rc.json';
export const RECORD_KEY = 'toolkit';
/** No version in it: the version lives in the record alone. */
export const TOOLKIT_NOTICE = 'generated: do not edit, `repairmon upgrade` replaces it';

export interface ToolkitRecord {
  /** Version of generator-repair-service that wrote the toolkit files. */
  readonly version: string;
  /** Folder (relative to the project) holding `contract/`, `client/` and `checklist/`. */
  readonly dir: string;
  /** Project-relative POSIX path -> `sha256-<hex>` of the toolkit file written. */
  readonly files: Readonly<Record<string, string>>;
  /** The same for the integrator's files, as the generator wrote them (older records have none). */
  readonly integratorFiles?: Readonly<Record<string, string>>;
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The notice in the comment syntax of the file's type; undefined for a type we cannot comment. */
export function headerLine(path: string): string | undefined {
  if (/\.(?:ts|mts|cts|js|mjs|cjs)$/.test(path)) return `// ${TOOLKIT_NOTICE}\n`;
  if (path.endsWith('.md')) return `<!-- ${TOOLKIT_NOTICE} -->\n`;
  if (/\.ya?ml$/.test(path)) return `# ${TOOLKIT_NOTICE}\n`;
  return undefined;
}

export function withHeader(path: string, contents: Buffer): Buffer {
  const line = headerLine(path);
  return line === undefined ? contents : Buffer.concat([Buffer.from(line, 'utf8'), contents]);
}

/** The contents without our notice line, this version's or an older one naming a version (files of the oldest projects have none). */
export function withoutHeader(contents: Buffer): Buffer {
  const end = contents.indexOf(0x0a);
  if (end === -1) return contents;
  return contents.subarray(0, end).toString('utf8').includes(TOOLKIT_NOTICE)
    ? contents.subarray(end + 1)
    : contents;
}

export function contentHash(contents: Buffer): string {
  return `sha256-${createHash('sha256').update(contents).digest('hex')}`;
}

/** This generator's section of `dir/.yo-rc.json` (answers and the toolkit record); undefined when absent or unreadable. */
export function readStoredSection(dir: string, configKey: string): Json | undefined {
  const file = join(dir, YO_RC);
  if (!existsSync(file)) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const section = isObject(parsed) ? parsed[configKey] : undefined;
    return isObject(section) ? section : undefined;
  } catch {
    return undefined;
  }
}

const hashes = z.record(z.string(), z.string());
const RECORD = z.object({
  version: z.string(),
  dir: z.string(),
  files: hashes,
  // Older records have none, and a malformed one only costs the wording.
  integratorFiles: hashes.optional().catch(undefined),
});

export function parseToolkitRecord(section: unknown): ToolkitRecord | undefined {
  const parsed = isObject(section) ? RECORD.safeParse(section[RECORD_KEY]) : undefined;
  return parsed?.success ? parsed.data : undefined;
}

export type YoRcText =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * The next text of `.yo-rc.json`: our section merged over what it held, every other
 * generator's section kept, as yeoman itself writes it (2-space JSON and a newline). Pure, so
 * an unreadable file is refused before anything is written.
 */
export function nextYoRc(
  existing: string | undefined,
  configKey: string,
  section: Readonly<Json>,
): YoRcText {
  let store: Json = {};
  if (existing !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing);
    } catch (error) {
      return {
        ok: false,
        reason: `${YO_RC} is not valid JSON (${error instanceof Error ? error.message : String(error)}); nothing was written. Fix or remove it, then run again.`,
      };
    }
    if (!isObject(parsed))
      return {
        ok: false,
        reason: `${YO_RC} does not hold a JSON object; nothing was written. Fix or remove it, then run again.`,
      };
    store = parsed;
  }
  const ours = isObject(store[configKey]) ? store[configKey] : {};
  return {
    ok: true,
    text: `${JSON.stringify({ ...store, [configKey]: { ...ours, ...section } }, null, 2)}\n`,
  };
}
