/**
 * `--keys FILE` (`startSandbox({ keysFile })`): fixed values for some or all key aliases, so a
 * restarted sandbox keeps the keys every monitor and script was given. YAML or JSON, a map
 * `alias: value`, read with the config kit: every problem at once (an alias the sandbox does not
 * have, a value no header can carry or too short to hide behind its last 4 characters, one
 * value for two aliases), each naming the alias and never echoing a value. Aliases left out
 * keep random values.
 */
import { z } from 'zod';
import { aliasSchema, parseWith } from '../lib/index.js';
import { checkedOrThrow, decodeFile } from './errors.js';
import type { KeySpec } from './model.js';

/** Long enough that the last 4 characters, which may be shown, give little away. */
const MIN_FIXED_KEY_LENGTH = 16;

function valueProblem(value: string): string | undefined {
  if (value.trim() !== value || /\s/.test(value)) return 'the value contains whitespace';
  if (!/^[\x21-\x7e]*$/.test(value)) return 'the value has a character an HTTP header cannot carry (only visible ASCII)';
  if (value.length < MIN_FIXED_KEY_LENGTH) return `the value is shorter than ${MIN_FIXED_KEY_LENGTH} characters`;
  return undefined;
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function keysSchema(known: readonly string[]) {
  // Not z.record: it copies entries into a plain object, where an alias "__proto__" sets the
  // prototype and vanishes. The decoded map's own entries are read as they are. Values are
  // checked here rather than by a string schema, so one bad value cannot stop the other checks.
  return z.custom<Record<string, unknown>>(isMap, 'expected record: a map of alias -> key value').superRefine((map, ctx) => {
    const owner = new Map<string, string>();
    for (const [alias, value] of Object.entries(map)) {
      const issue = (message: string): void => ctx.addIssue({ code: 'custom', path: [alias], message });
      const aliasCheck = aliasSchema.safeParse(alias);
      if (!aliasCheck.success) issue(aliasCheck.error.issues[0]?.message ?? 'is not a valid alias');
      else if (!known.includes(alias)) issue(`unknown alias; the sandbox's keys are: ${known.join(', ')}`);
      if (typeof value !== 'string') {
        issue('must be the key value as a string');
        continue;
      }
      const problem = valueProblem(value);
      if (problem) issue(`${problem}; it is not a usable key`);
      const first = owner.get(value);
      if (first !== undefined) issue(`has the same value as ${first}: every key needs its own`);
      else owner.set(value, alias);
    }
  });
}

/** Validates decoded keys against the sandbox's key specs; throws SandboxConfigError listing every alias at fault. */
export function parseKeysFile(value: unknown, specs: readonly KeySpec[], file = 'keys'): ReadonlyMap<string, string> {
  const map = checkedOrThrow('keys', file, parseWith(keysSchema(specs.map((s) => s.alias)), value ?? {}));
  return new Map(Object.entries(map as Record<string, string>));
}

export function loadKeysFile(file: string, specs: readonly KeySpec[]): ReadonlyMap<string, string> {
  return parseKeysFile(decodeFile(file, 'keys', 'keys file'), specs, file);
}
