/**
 * Every secret of the raw config document, resolved before (and whatever) the schema says.
 * docs/monitor.md promises every problem at once: an unknown key elsewhere must not hide that
 * `${NOWAK_KEY}` is unset or a secret file unreadable. So every key and HTTP token whose own
 * shape is readable is resolved here, and the valid config takes its secrets from this pass.
 * Values are never echoed.
 */
import type { ApiKey } from '../../api/client/index.js';
import { SECRET_REFERENCE } from './schema.js';
import { httpIssues, resolveToken, tokenReferences } from './http-settings.js';
import { type SecretOrigin, type SecretSources, resolveSecret } from './secrets.js';
import type { ConfigIssue } from './types.js';

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A key whose secret reference can be resolved: an alias and exactly one well-formed form. */
function readableKey(key: unknown): { alias: string; secret?: string; secretFile?: string } | undefined {
  if (!isObject(key) || typeof key['alias'] !== 'string' || key['alias'] === '') return undefined;
  const { alias, secret, secretFile: file } = key;
  if (typeof secret === 'string' && file === undefined && SECRET_REFERENCE.test(secret.trim())) return { alias, secret };
  if (typeof file === 'string' && file !== '' && secret === undefined) return { alias, secretFile: file };
  return undefined;
}

export interface ResolvedSecrets {
  /** By config path (`targets[0].keys[1]`). */
  readonly keys: ReadonlyMap<string, { readonly key: ApiKey; readonly origin: SecretOrigin }>;
  readonly tokens: Partial<Record<'token' | 'metricsToken', ApiKey>>;
  readonly issues: readonly ConfigIssue[];
}

export function resolveSecrets(value: unknown, sources: SecretSources): ResolvedSecrets {
  const keys = new Map<string, { key: ApiKey; origin: SecretOrigin }>();
  const tokens: Partial<Record<'token' | 'metricsToken', ApiKey>> = {};
  const issues: ConfigIssue[] = [];
  const doc = isObject(value) ? value : {};
  list(doc['targets']).forEach((target, i) => {
    list(isObject(target) ? target['keys'] : []).forEach((raw, j) => {
      const key = readableKey(raw);
      const path = `targets[${i}].keys[${j}]`;
      const result = key && resolveSecret(key, path, sources);
      if (result?.ok) keys.set(path, result);
      else if (result) issues.push(result.issue);
    });
  });
  const http = doc['http'];
  if (isObject(http)) {
    // A token given in both forms is already an issue; which one was meant is anyone's guess.
    const ambiguous = (name: string): boolean => http[name] !== undefined && http[`${name}File`] !== undefined;
    issues.push(...httpIssues(http));
    for (const { ref, label, name } of tokenReferences(http)) {
      if (ambiguous(name) || (ref.env && !SECRET_REFERENCE.test(ref.env.text.trim()))) continue;
      const token = resolveToken(ref, label, name, sources, issues);
      if (token) tokens[name] = token;
    }
  }
  return { keys, tokens, issues };
}
