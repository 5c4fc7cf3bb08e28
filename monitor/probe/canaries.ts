/**
 * Authorization canaries: requests that must be refused (or, for the public and other-header
 * checks, must succeed). Each is switchable per target. A refusal canary that gets data back
 * is reported as `assertion_failed`: the API leaked what it should have guarded.
 */
import { ERROR_CODES, PLATFORM_SUBPATHS, endpointPath, otherScheme } from '../../api/contract/index.js';
import type { MonitorKey, MonitorTarget } from '../config/types.js';
import { INVALID_KEY_ALIAS, NO_KEY_ALIAS, type ProbeSpec, makeProbe, otherHeaderPath } from './spec.js';

/**
 * ASSUMPTION: when a target lists only one tenant, the cross-tenant canary reads this slug.
 * A tenant key must be refused on any tenant but its own, existing or not.
 */
export const CANARY_FOREIGN_TENANT = 'repairmon-canary-foreign';

function foreignTenant(target: MonitorTarget, key: MonitorKey): string {
  const known = target.keys.flatMap((k) => k.tenants);
  return known.find((t) => t !== key.tenant) ?? CANARY_FOREIGN_TENANT;
}

function crossTenant(target: MonitorTarget, key: MonitorKey): ProbeSpec {
  const tenant = foreignTenant(target, key);
  return makeProbe({
    target: target.name,
    endpoint: 'clients',
    tenant,
    keyAlias: key.alias,
    check: 'cross_tenant',
    path: endpointPath('clients', { tenant }),
    credential: { kind: 'key', key, scheme: key.auth },
    expect: { kind: 'refusal', outcome: 'tenant_key_tenant_mismatch', breach: 'tenant_isolation_breach', breachDetail: `tenant-isolation breach: tenant key of ${key.tenant ?? '?'} read ${tenant}'s clients` },
  });
}

function platformRefused(target: MonitorTarget, key: MonitorKey): ProbeSpec {
  return makeProbe({
    target: target.name,
    endpoint: 'platform',
    tenant: '',
    keyAlias: key.alias,
    check: 'platform_refused',
    path: endpointPath('platform', { platformSub: PLATFORM_SUBPATHS.tenants }),
    credential: { kind: 'key', key, scheme: key.auth },
    expect: { kind: 'refusal', outcome: 'forbidden', breach: 'authorization_breach', breachDetail: `authorization breach: tenant key read /platform/ (expected ${ERROR_CODES.platformKeyRequired})` },
  });
}

function otherHeader(target: MonitorTarget, key: MonitorKey): ProbeSpec {
  const { endpoint, tenant, path } = otherHeaderPath(key);
  return makeProbe({
    target: target.name,
    endpoint,
    tenant,
    keyAlias: key.alias,
    check: 'other_header',
    path,
    credential: { kind: 'key', key, scheme: otherScheme(key.auth) },
    expect: { kind: 'success', list: endpoint !== 'platform' },
  });
}

function targetCanaries(target: MonitorTarget): ProbeSpec[] {
  const out: ProbeSpec[] = [];
  if (target.canaries.invalid_key) {
    out.push(
      makeProbe({
        target: target.name,
        endpoint: 'index',
        tenant: '',
        keyAlias: INVALID_KEY_ALIAS,
        check: 'invalid_key',
        path: endpointPath('index'),
        credential: { kind: 'invalid' },
        expect: { kind: 'refusal', outcome: 'unauthorized', breach: 'authorization_breach', breachDetail: 'authorization breach: an invalid key was served data' },
      }),
    );
  }
  if (target.canaries.public_docs) {
    out.push(
      makeProbe({
        target: target.name,
        endpoint: 'docs',
        tenant: '',
        keyAlias: NO_KEY_ALIAS,
        check: 'public_docs',
        path: endpointPath('docs'),
        credential: { kind: 'none' },
        expect: { kind: 'success', list: false },
      }),
    );
  }
  return out;
}

export function canaryProbes(target: MonitorTarget): ProbeSpec[] {
  const perKey = target.keys.flatMap((key) => {
    const out: ProbeSpec[] = [];
    if (key.kind === 'tenant' && target.canaries.cross_tenant) out.push(crossTenant(target, key));
    if (key.kind === 'tenant' && target.canaries.platform_refused) out.push(platformRefused(target, key));
    if (target.canaries.other_header) out.push(otherHeader(target, key));
    return out;
  });
  return [...targetCanaries(target), ...perKey];
}
