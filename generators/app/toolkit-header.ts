/**
 * The one-line header every toolkit-owned file of a generated project starts with. It is
 * added when the project is rendered, not stored in `api/`, so the toolkit's own sources stay
 * as they are and the header always names the version that wrote the file.
 */
import { createHash } from 'node:crypto';

export const TOOLKIT_NOTICE = 'generated: do not edit, `repairmon upgrade` replaces it';

function headerText(version: string): string {
  return `generator-repair-service ${version} toolkit code; ${TOOLKIT_NOTICE}`;
}

/** The header in the comment syntax of the file's type; undefined for a type we cannot comment. */
export function headerLine(path: string, version: string): string | undefined {
  if (/\.(?:ts|mts|cts|js|mjs|cjs)$/.test(path)) return `// ${headerText(version)}\n`;
  if (path.endsWith('.md')) return `<!-- ${headerText(version)} -->\n`;
  return undefined;
}

export function withHeader(path: string, contents: Buffer, version: string): Buffer {
  const line = headerLine(path, version);
  return line === undefined ? contents : Buffer.concat([Buffer.from(line, 'utf8'), contents]);
}

/** The contents without our header line, whatever version it names (files of old projects have none). */
export function withoutHeader(contents: Buffer): Buffer {
  const end = contents.indexOf(0x0a);
  if (end === -1) return contents;
  const first = contents.subarray(0, end).toString('utf8');
  return first.includes(TOOLKIT_NOTICE) && first.includes('generator-repair-service') ? contents.subarray(end + 1) : contents;
}

/** How a toolkit file's contents are recorded in `.yo-rc.json`. */
export function contentHash(contents: Buffer): string {
  return `sha256-${createHash('sha256').update(contents).digest('hex')}`;
}
