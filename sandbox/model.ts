/**
 * The sandbox's data model: tenants with their records, and keys. Key values are generated at
 * every start (crypto random), prefixed per environment, so a demo key never outlives its
 * sandbox and cannot be committed anywhere by accident; unless a keys file fixes them
 * (`keys-file.ts`), so a restart keeps the keys monitors were given.
 */
import { randomBytes } from 'node:crypto';
import { type Environment, KEY_PREFIXES, type KeyKind, type Scope, type TenantResource } from '../api/contract/index.js';

export interface TenantInfo {
  readonly slug: string;
  readonly name: string;
  readonly city: string;
}

export interface TenantData {
  readonly info: TenantInfo;
  readonly records: Readonly<Record<TenantResource, readonly unknown[]>>;
}

/** A key as configured: everything but the secret value. */
export interface KeySpec {
  readonly alias: string;
  readonly kind: KeyKind;
  readonly tenant?: string;
  readonly environment: Environment;
  readonly scopes: readonly Scope[];
  readonly revoked: boolean;
}

export interface SandboxData {
  readonly tenants: readonly TenantData[];
  readonly keys: readonly KeySpec[];
}

export interface DemoKey extends KeySpec {
  /** The secret value. */
  readonly key: string;
  /** From a keys file: a lasting secret, never printed by the human output. */
  readonly fixed?: boolean;
}

export function issueKeys(specs: readonly KeySpec[], fixed: ReadonlyMap<string, string>): DemoKey[] {
  return specs.map((spec) => {
    const value = fixed.get(spec.alias);
    return value !== undefined
      ? { ...spec, key: value, fixed: true }
      : { ...spec, key: `${KEY_PREFIXES[spec.environment]}${randomBytes(24).toString('base64url')}` };
  });
}

/** What /platform/keys shows: never the value, at most its last 4 characters. */
export function keyMetadata(key: DemoKey): Record<string, unknown> {
  const { alias, kind, tenant, environment, scopes, revoked } = key;
  return { alias, kind, tenant: tenant ?? null, environment, scopes, revoked, last4: key.key.slice(-4) };
}
