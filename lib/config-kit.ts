/**
 * What every file a user hands us is read with (the monitor config, the sandbox data file and
 * keys file): YAML or JSON decoded with positions, a strict zod schema, and every problem at
 * once as `path: message` lines such as `targets[1].keys[0].tenant: is required`.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { hasKeyPrefix } from './secret-shape.js';
import { DOCUMENT_FILE_MAX_BYTES, readUserFile, userFileProblem } from './user-file.js';
import { type Checked, type ConfigIssue, decodeYaml } from './yaml-document.js';

export type { Checked, ConfigIssue };

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out === '' ? String(part) : `${out}.${String(part)}`),
    '',
  );
}

function issuesFromZod(error: z.ZodError): ConfigIssue[] {
  return error.issues.flatMap((issue): ConfigIssue[] => {
    const path = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: 'unknown key' }));
    if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return [{ path, message: 'is required' }];
    return [{ path, message: issue.message }];
  });
}

/** `  path: message`, one line each; the top level reads `(top level)`. */
export function formatIssues(issues: readonly ConfigIssue[]): string {
  return issues.map((i) => `  ${i.path || '(top level)'}: ${i.message}`).join('\n');
}

/** YAML (a superset of JSON) unless the name ends in .json; duplicate keys refused, aliases bounded. Never throws. */
export function decodeDocument(text: string, name: string): Checked<unknown> {
  if (/\.json$/i.test(name)) {
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch (error) {
      return { ok: false, issues: [{ path: '', message: `cannot parse JSON (${(error as Error).message})` }] };
    }
  }
  return decodeYaml(text);
}

/** The file's text (a regular file, at most DOCUMENT_FILE_MAX_BYTES), or one issue naming the file and why not. */
export function readDocument(file: string, what = 'file'): Checked<{ readonly text: string; readonly path: string }> {
  const path = resolve(file);
  const read = readUserFile(path, DOCUMENT_FILE_MAX_BYTES);
  if (read.ok) return { ok: true, value: { text: read.text, path } };
  return { ok: false, issues: [{ path: '', message: userFileProblem(what, path, read) }] };
}

/** Validates against a schema; every issue zod finds, not only the first. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): Checked<z.infer<S>> {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: issuesFromZod(parsed.error) };
}

/**
 * An alias names a key in logs, labels, the status page and probe ids: taken as written (escaped
 * wherever it travels), refusing only what no label can hold well, and never the key itself.
 */
const ALIAS_MAX_LENGTH = 128;
export const aliasSchema = z
  .string()
  .min(1, 'is empty')
  .max(ALIAS_MAX_LENGTH, `is longer than ${ALIAS_MAX_LENGTH} characters`)
  .refine((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s), 'cannot contain control characters')
  .refine((s) => s.trim() === s, 'cannot start or end with spaces')
  // It travels to every log line and label: a pasted key there would be printed everywhere.
  .refine((s) => !hasKeyPrefix(s), 'holds an API key prefix: an alias names a key and must not be one');
