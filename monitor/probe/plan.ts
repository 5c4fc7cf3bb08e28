/**
 * The probes a config asks for, as plain data: reads of `/`, `/docs`, `/platform/` and the
 * four tenant resources, plus the authorization canaries. Pure; the same config always gives
 * the same plan, which is what reload diffs and sharding hash.
 */
import { type EndpointId, PLATFORM_SUBPATHS, TENANT_RESOURCES, endpointPath, endpointSpec } from '../../api/contract/index.js';
import type { MonitorConfig, MonitorKey, MonitorTarget } from '../config/types.js';
import { canaryProbes } from './canaries.js';
import { type ProbeSpec, makeProbe } from './spec.js';

export type { ProbeSpec } from './spec.js';

function read(target: MonitorTarget, key: MonitorKey, endpoint: EndpointId, tenant = ''): ProbeSpec {
  const path = endpoint === 'platform' ? endpointPath('platform', { platformSub: PLATFORM_SUBPATHS.tenants }) : endpointPath(endpoint, { tenant });
  return makeProbe({
    target: target.name,
    endpoint,
    tenant,
    keyAlias: key.alias,
    check: 'read',
    path,
    credential: { kind: 'key', key, scheme: key.auth },
    expect: { kind: 'success', list: endpointSpec(endpoint).list },
  });
}

function keyReads(target: MonitorTarget, key: MonitorKey): ProbeSpec[] {
  const reads = key.tenants.flatMap((tenant) => TENANT_RESOURCES.map((resource) => read(target, key, resource, tenant)));
  if (key.kind === 'platform') reads.push(read(target, key, 'platform'));
  return reads;
}

export function targetPlan(target: MonitorTarget): ProbeSpec[] {
  const first = target.keys[0];
  const shared = first ? [read(target, first, 'index'), read(target, first, 'docs')] : [];
  return [...shared, ...target.keys.flatMap((key) => keyReads(target, key)), ...canaryProbes(target)];
}

export function buildPlan(config: MonitorConfig): ProbeSpec[] {
  return config.targets.flatMap(targetPlan);
}
