/** The sandbox's data model: tenants with their records, and key metadata without values. */
import type { Environment, KeyKind, Scope, TenantResource } from '../api/contract/index.js';

export interface TenantInfo {
  readonly slug: string;
  readonly name: string;
  readonly city: string;
}

export type TenantRecords = Readonly<Record<TenantResource, readonly unknown[]>>;

export interface TenantData {
  readonly info: TenantInfo;
  readonly records: TenantRecords;
}

/** A key as configured: everything but the secret value, which is generated at start. */
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
