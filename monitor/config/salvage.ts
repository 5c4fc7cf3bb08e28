/**
 * Secret problems of a config that failed the schema or a cross-field rule. docs/monitor.md promises
 * every problem at once: an unknown key elsewhere must not hide that `${NOWAK_KEY}` is unset or
 * a secret file unreadable. So every key and HTTP token whose own shape is readable is resolved
 * from the raw document, whatever is wrong around it. Values are never echoed.
 */
import { shownValue } from '../../lib/index.js';
import { httpIssues, resolveToken, tokenReferences } from './http-settings.js';
import { SECRET_REFERENCE } from './schema.js';
import { type SecretSources, resolveSecret } from './secrets.js';
import type { ConfigIssue } from './types.js';

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A key whose secret reference can be resolved: an alias and exactly one well-formed form. */
function readableKey(key: unknown): { alias: string; secret?: string; secretFile?: string } | undefined {
  if (!isObject(key) || typeof key['alias'] !== 'string' || key['alias'] === '') return undefined;
  // Names the key in messages; the schema refuses a key pasted as the alias, this shows it safely.
  const alias = shownValue(key['alias']);
  const secret = key['secret'];
  const file = key['secretFile'];
  if (typeof secret === 'string' && file === undefined && SECRET_REFERENCE.test(secret.trim())) return { alias, secret };
  if (typeof file === 'string' && file !== '' && secret === undefined) return { alias, secretFile: file };
  return undefined;
}

function targetIssues(target: unknown, i: number, sources: SecretSources): ConfigIssue[] {
  if (!isObject(target)) return [];
  const issues: ConfigIssue[] = [];
  list(target['keys']).forEach((raw, j) => {
    const key = readableKey(raw);
    if (!key) return;
    const result = resolveSecret(key, `targets[${i}].keys[${j}]`, sources);
    if (!result.ok) issues.push(result.issue);
  });
  return issues;
}

function httpTokenIssues(http: unknown, sources: SecretSources): ConfigIssue[] {
  if (!isObject(http)) return [];
  // A token given in both forms is already an issue; which one was meant is anyone's guess.
  const ambiguous = (name: string): boolean => http[name] !== undefined && http[`${name}File`] !== undefined;
  const issues: ConfigIssue[] = httpIssues(http);
  for (const { ref, label, name } of tokenReferences(http)) {
    if (ambiguous(name) || (ref.env && !SECRET_REFERENCE.test(ref.env.text.trim()))) continue;
    resolveToken(ref, label, name, sources, issues);
  }
  return issues;
}

/** Secret issues of the raw document not already reported at the same path. */
export function salvageSecretIssues(value: unknown, sources: SecretSources, known: readonly ConfigIssue[]): ConfigIssue[] {
  if (!isObject(value)) return [];
  const found = [...list(value['targets']).flatMap((t, i) => targetIssues(t, i, sources)), ...httpTokenIssues(value['http'], sources)];
  const seen = new Set(known.map((i) => i.path));
  return found.filter((issue) => !seen.has(issue.path));
}
