/**
 * Key values are generated at every start (crypto random), prefixed per environment, so a
 * demo key never outlives its sandbox and cannot be committed anywhere by accident.
 */
import { randomBytes } from 'node:crypto';
import { KEY_PREFIXES } from '../api/contract/index.js';
import type { KeySpec } from './model.js';

export interface DemoKey extends KeySpec {
  /** The secret value. */
  readonly key: string;
}

export function issueKeys(specs: readonly KeySpec[]): DemoKey[] {
  return specs.map((spec) => ({ ...spec, key: `${KEY_PREFIXES[spec.environment]}${randomBytes(24).toString('base64url')}` }));
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
