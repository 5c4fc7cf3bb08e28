/** A probe as plain data: what to request, with which credential, expecting what. */
import {
  type AuthScheme,
  type EndpointId,
  KEY_PREFIXES,
  PLATFORM_SUBPATHS,
  endpointPath,
} from '../../api/contract/index.js';
import type { CanaryName } from '../config/schema.js';
import type { MonitorKey } from '../config/types.js';
import type { Expectation } from './expectation.js';

export type ProbeCheck = 'read' | CanaryName;

export type Credential =
  | { readonly kind: 'key'; readonly key: MonitorKey; readonly scheme: AuthScheme }
  | { readonly kind: 'none' }
  /** A deliberately wrong key; its value is made up per run and proves nothing secret. */
  | { readonly kind: 'invalid' };

export interface ProbeSpec {
  /** Stable identity: `target/key_alias/tenant/endpoint/check`. */
  readonly id: string;
  readonly target: string;
  readonly endpoint: EndpointId;
  /** The tenant in the URL, '' for `/`, `/docs` and `/platform/`. */
  readonly tenant: string;
  /** The key's alias, or a canary's pseudo alias when no real key is sent. */
  readonly keyAlias: string;
  readonly check: ProbeCheck;
  /** Relative to the target's base URL. */
  readonly path: string;
  readonly credential: Credential;
  readonly expect: Expectation;
}

export const NO_KEY_ALIAS = 'canary-no-key';
export const INVALID_KEY_ALIAS = 'canary-invalid-key';
/** Prefix of made-up invalid keys: shaped like a test key so it reaches the key check. */
export const INVALID_KEY_PREFIX = `${KEY_PREFIXES.test}repairmon_canary_`;

export function probeId(p: Pick<ProbeSpec, 'target' | 'keyAlias' | 'tenant' | 'endpoint' | 'check'>): string {
  return [p.target, p.keyAlias, p.tenant, p.endpoint, p.check].join('/');
}

export function makeProbe(fields: Omit<ProbeSpec, 'id'>): ProbeSpec {
  return { ...fields, id: probeId(fields) };
}

/** The same key through the other header form, on a path the key may read. */
export function otherHeaderPath(key: MonitorKey): { endpoint: EndpointId; tenant: string; path: string } {
  const tenant = key.tenants[0];
  if (key.kind === 'tenant' && tenant !== undefined) return { endpoint: 'clients', tenant, path: endpointPath('clients', { tenant }) };
  return { endpoint: 'platform', tenant: '', path: endpointPath('platform', { platformSub: PLATFORM_SUBPATHS.tenants }) };
}

