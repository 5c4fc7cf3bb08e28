/**
 * Turning `secret: ${ENV_VAR}` and `secretFile: path` into ApiKey values. Errors name the
 * variable or file and the key alias, never a value.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ApiKey } from '../../api/client/index.js';
import { SECRET_REFERENCE, type RawKey } from './schema.js';
import type { ConfigIssue } from './types.js';

export interface SecretSources {
  readonly env: NodeJS.ProcessEnv;
  /** Relative `secretFile` paths are read from the config file's folder. */
  readonly baseDir: string;
  readonly readFile?: (path: string) => string;
}

export type SecretResult = { readonly ok: true; readonly key: ApiKey } | { readonly ok: false; readonly issue: ConfigIssue };

function toKey(value: string, alias: string, path: string, source: string): SecretResult {
  try {
    return { ok: true, key: new ApiKey(value, alias) };
  } catch {
    return { ok: false, issue: { path, message: `key "${alias}": ${source} is empty or contains whitespace` } };
  }
}

export function resolveSecret(key: RawKey, path: string, sources: SecretSources): SecretResult {
  if (key.secret !== undefined) {
    const name = SECRET_REFERENCE.exec(key.secret.trim())?.[1] ?? '';
    const value = sources.env[name];
    if (value === undefined || value.trim() === '') {
      return { ok: false, issue: { path: `${path}.secret`, message: `key "${key.alias}": environment variable ${name} is not set` } };
    }
    return toKey(value, key.alias, `${path}.secret`, `environment variable ${name}`);
  }
  const file = isAbsolute(key.secretFile ?? '') ? (key.secretFile ?? '') : resolve(sources.baseDir, key.secretFile ?? '');
  let text: string;
  try {
    text = (sources.readFile ?? ((p: string) => readFileSync(p, 'utf8')))(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { ok: false, issue: { path: `${path}.secretFile`, message: `key "${key.alias}": cannot read secret file ${file} (${typeof code === 'string' ? code : 'read error'})` } };
  }
  return toKey(text, key.alias, `${path}.secretFile`, `secret file ${file}`);
}
