/**
 * Turning `${ENV_VAR}` and file references into ApiKey values: API keys (`secret`/`secretFile`)
 * and the monitor's own HTTP tokens (`token`/`tokenFile`). Errors name the variable or file and
 * what the secret is for (a key alias, the HTTP token), never a value.
 */
import { isAbsolute, resolve } from 'node:path';
import { ApiKey } from '../../api/client/index.js';
import {
  type ConfigIssue,
  SECRET_FILE_MAX_BYTES,
  looksLikeSecret,
  readUserFile,
  shownPath,
  shownValue,
  userFileProblem,
} from '../../lib/index.js';
import { SECRET_REFERENCE, type RawKey } from './schema.js';

export interface SecretSources {
  readonly env: NodeJS.ProcessEnv;
  /** Relative `secretFile` paths are read from the config file's folder. */
  readonly baseDir: string;
}

/** Where a secret was read from: a reload rereads files, but a process cannot see a changed environment. */
export type SecretOrigin = { readonly kind: 'env'; readonly name: string } | { readonly kind: 'file'; readonly path: string };

type SecretResult =
  { readonly ok: true; readonly key: ApiKey; readonly origin: SecretOrigin } | { readonly ok: false; readonly issue: ConfigIssue };

/** One secret reference: exactly one of the two forms is set (the rules check that first). */
export interface SecretReference {
  /** `${NAME}` and the config path it stands at. */
  readonly env?: { readonly text: string; readonly path: string } | undefined;
  /** A path (relative to the config file) and the config path it stands at. */
  readonly file?: { readonly text: string; readonly path: string } | undefined;
}

function toKey(value: string, alias: string, label: string, path: string, source: string, origin: SecretOrigin): SecretResult {
  try {
    return { ok: true, key: new ApiKey(value, alias), origin };
  } catch {
    return { ok: false, issue: { path, message: `${label}: ${source} is empty or contains whitespace` } };
  }
}

/**
 * The value written where the variable's name belongs: `${rs_live_…}` is a key pasted into the
 * reference, and the message about it must not print the key back (see lib/secret-shape.ts).
 */
function envProblem(label: string, name: string): string {
  if (!looksLikeSecret(name)) return `${label}: environment variable ${name} is not set`;
  return `${label}: environment variable \${${shownValue(name)}} is not set (its name is not shown: it looks like it could be the secret itself; write the variable's name there, and export the secret in that variable)`;
}

function fileProblem(label: string, given: string, file: string, read: { code: string; reason: string }): string {
  if (!looksLikeSecret(given)) return `${label}: ${userFileProblem('secret file', file, read)}`;
  const why = "its path is not shown: it looks like it could be the secret itself; write the secret into a file and give that file's path";
  const problem = userFileProblem('secret file', shownValue(given), read);
  return `${label}: ${problem.endsWith(')') ? `${problem.slice(0, -1)}; ${why})` : `${problem} (${why})`}`;
}

/** Reads a file named relative to the config file's folder (a regular file up to `maxBytes`): its text, or why not. */
export function readRelative(
  given: string,
  sources: SecretSources,
  maxBytes = SECRET_FILE_MAX_BYTES,
): { file: string; read: ReturnType<typeof readUserFile> } {
  const file = isAbsolute(given) ? given : resolve(sources.baseDir, given);
  return { file, read: readUserFile(file, maxBytes) };
}

/** `label` names what the secret is for in messages (`key "nowak-test"`); `alias` is what it prints as. */
export function resolveReference(ref: SecretReference, label: string, alias: string, sources: SecretSources): SecretResult {
  if (ref.env !== undefined) {
    const name = SECRET_REFERENCE.exec(ref.env.text.trim())?.[1] ?? '';
    const value = sources.env[name];
    if (value === undefined || value.trim() === '') return { ok: false, issue: { path: ref.env.path, message: envProblem(label, name) } };
    return toKey(value, alias, label, ref.env.path, `environment variable ${shownValue(name)}`, { kind: 'env', name });
  }
  const given = ref.file?.text ?? '';
  const at = ref.file?.path ?? '';
  const { file, read } = readRelative(given, sources);
  if (!read.ok) return { ok: false, issue: { path: at, message: fileProblem(label, given, file, read) } };
  return toKey(read.text, alias, label, at, `secret file ${shownPath(given, file)}`, { kind: 'file', path: file });
}

export function resolveSecret(key: Pick<RawKey, 'alias' | 'secret' | 'secretFile'>, path: string, sources: SecretSources): SecretResult {
  const ref: SecretReference =
    key.secret !== undefined
      ? { env: { text: key.secret, path: `${path}.secret` } }
      : { file: { text: key.secretFile ?? '', path: `${path}.secretFile` } };
  // The message names the key by its alias, shown safely: the schema refuses a key pasted as the alias.
  return resolveReference(ref, `key "${shownValue(key.alias)}"`, key.alias, sources);
}
