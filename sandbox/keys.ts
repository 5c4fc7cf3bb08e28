/**
 * Key values are generated at every start (crypto random), prefixed per environment, so a
 * demo key never outlives its sandbox and cannot be committed anywhere by accident; unless a
 * keys file fixes them (`keys-file.ts`), so a restart keeps the keys monitors were given.
 */
import { randomBytes } from 'node:crypto';
import { KEY_PREFIXES } from '../api/contract/index.js';
import type { KeySpec } from './model.js';

export interface DemoKey extends KeySpec {
  /** The secret value. */
  readonly key: string;
  /** From a keys file: a lasting secret, never printed by the human output. */
  readonly fixed?: boolean;
}

export function issueKeys(specs: readonly KeySpec[], fixed: ReadonlyMap<string, string> = new Map()): DemoKey[] {
  return specs.map((spec) => {
    const value = fixed.get(spec.alias);
    return value !== undefined
      ? { ...spec, key: value, fixed: true }
      : { ...spec, key: `${KEY_PREFIXES[spec.environment]}${randomBytes(24).toString('base64url')}` };
  });
}

/** What /platform/keys shows: never the value, at most its last 4 characters. */
export function keyMetadata(key: DemoKey): Record<string, unknown> {
  return {
    alias: key.alias,
    kind: key.kind,
    tenant: key.tenant ?? null,
    environment: key.environment,
    scopes: key.scopes,
    revoked: key.revoked,
    last4: key.key.slice(-4),
  };
}
