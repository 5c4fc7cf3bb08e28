/** A probe as plain data: what to request, with which credential, expecting what. */
import { type AuthScheme, type EndpointId, KEY_PREFIXES, TENANT_RESOURCES, endpointPath } from '../../api/contract/index.js';
import type { CanaryName } from '../config/schema.js';
import type { MonitorKey, MonitorTarget } from '../config/types.js';
import type { Expectation } from './expectation.js';

/**
 * `read`: a key's read that must succeed; `expected_refusal`: a key's read its `expect` in
 * monitor.yaml says is refused (its own value, so a refusal that is meant to happen never
 * counts against the read success ratio); else a canary.
 */
export type ProbeCheck = 'read' | 'expected_refusal' | CanaryName;

/** A key's read of a resource (the status page's grid), whether it must succeed or be refused. */
export function isKeyRead(check: ProbeCheck): boolean {
  return check === 'read' || check === 'expected_refusal';
}

export type Credential =
  | { readonly kind: 'key'; readonly key: MonitorKey; readonly scheme: AuthScheme }
  | { readonly kind: 'none' }
  /** A deliberately wrong key; its value is made up per run and proves nothing secret. */
  | { readonly kind: 'invalid' };

export interface ProbeSpec {
  /** Stable identity: `target/key_alias/tenant/endpoint/check`, each part URL-encoded. */
  readonly id: string;
  readonly target: string;
  readonly endpoint: EndpointId;
  /**
   * The `endpoint` metric label: the endpoint id, and for /platform/ the sub-path as well
   * (`platform/tenants`), so two configured platform paths are two series.
   */
  readonly endpointLabel: string;
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

function probeId(p: Pick<ProbeSpec, 'target' | 'keyAlias' | 'tenant' | 'endpointLabel' | 'check'>): string {
  // Encoded, so an alias or slug holding a "/" cannot make two probes one id.
  return [p.target, p.keyAlias, p.tenant, p.endpointLabel, p.check].map(encodeURIComponent).join('/');
}

export function makeProbe(
  fields: Omit<ProbeSpec, 'id' | 'endpointLabel' | 'path'> & { readonly platformSub?: string | undefined },
): ProbeSpec {
  const { platformSub, ...rest } = fields;
  const endpointLabel = rest.endpoint === 'platform' ? `platform/${platformSub ?? ''}` : rest.endpoint;
  const path =
    rest.endpoint === 'platform' ? endpointPath('platform', { platformSub }) : endpointPath(rest.endpoint, { tenant: rest.tenant });
  const spec = { ...rest, endpointLabel, path };
  return { ...spec, id: probeId(spec) };
}

/**
 * A path the key may read, for the other-header canary: the first resource its `expect` does
 * not refuse, of its own tenant (a platform key's first listed tenant), else its first
 * configured platform path; none when it has neither.
 */
export function readablePath(
  target: MonitorTarget,
  key: MonitorKey,
): { endpoint: EndpointId; tenant: string; platformSub?: string | undefined } | undefined {
  const tenant = key.tenants[0];
  const resource = TENANT_RESOURCES.find((r) => key.expect?.[r] === undefined);
  if (tenant !== undefined && resource !== undefined) return { endpoint: resource, tenant };
  const sub = key.kind === 'platform' && key.expect?.platform === undefined ? target.platformPaths[0] : undefined;
  return sub === undefined ? undefined : { endpoint: 'platform', tenant: '', platformSub: sub };
}
