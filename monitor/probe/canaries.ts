/**
 * Authorization canaries: requests that must be refused (or, for the public and other-header
 * checks, must succeed). Each is switchable per target. Where the spec leaves the answer open,
 * a canary asks only what holds under every reading: any refusal passes, and data coming back
 * is reported as `assertion_failed`, an authorization or tenant-isolation breach. Where the
 * spec names the refusal's code, another code is a deviation (a ticket), not a breach.
 */
import { ERROR_CODES, type EndpointId, otherScheme } from '../../api/contract/index.js';
import type { CanaryName } from '../config/schema.js';
import type { MonitorKey, MonitorTarget } from '../config/types.js';
import type { BreachKind, Expectation, RefusalKind } from './expectation.js';
import { type Credential, INVALID_KEY_ALIAS, NO_KEY_ALIAS, type ProbeSpec, makeProbe, readablePath } from './spec.js';

/**
 * ASSUMPTION: when a target lists only one tenant, the cross-tenant canary reads this slug.
 * Spec §5.5: a tenant in the URL other than the key's gives 403 tenant_key_tenant_mismatch,
 * existing or not.
 */
const CANARY_FOREIGN_TENANT = 'repairmon-canary-foreign';

/** A refusal the spec asks for; data back is the breach. */
function refusal(outcome: RefusalKind, specCode: string | undefined, breach: BreachKind, breachDetail: string): Expectation {
  return { kind: 'refusal', outcome, specCode, codeSource: 'spec', breach, breachDetail };
}

/** The first two distinct tenants the target's keys read, in config order: all a foreign pick needs. */
function firstTwoTenants(target: MonitorTarget): [string | undefined, string | undefined] {
  let first: string | undefined;
  for (const key of target.keys) {
    for (const tenant of key.tenants) {
      if (first === undefined) first = tenant;
      else if (tenant !== first) return [first, tenant];
    }
  }
  return [first, undefined];
}

/**
 * For each key, the first tenant of the target other than its own (or the made-up slug). Built
 * once per target: scanning every key's tenants for every key was n² work, 5 000 keys made a
 * plan (so a reload, `/probe` and check-config) take seconds. The first other tenant of the
 * list is its first entry, unless that is the key's own: then it is the first distinct one.
 */
function foreignTenants(target: MonitorTarget): (key: MonitorKey) => string {
  const [first, second] = firstTwoTenants(target);
  return (key) => (first !== undefined && first !== key.tenant ? first : second) ?? CANARY_FOREIGN_TENANT;
}

/** A tenant path for keyless and invalid-key canaries: spec §4 says tenant paths need a key. */
function anyTenant(target: MonitorTarget): string {
  return firstTwoTenants(target)[0] ?? CANARY_FOREIGN_TENANT;
}

const keyed = (key: MonitorKey, scheme = key.auth): Credential => ({ kind: 'key', key, scheme });

function canary(
  target: MonitorTarget,
  check: CanaryName,
  keyAlias: string,
  credential: Credential,
  where: { endpoint: EndpointId; tenant: string; platformSub?: string | undefined },
  expect: Expectation,
): ProbeSpec {
  return makeProbe({ target: target.name, ...where, keyAlias, check, credential, expect });
}

function crossTenant(target: MonitorTarget, key: MonitorKey, tenant: string): ProbeSpec {
  const detail = `tenant-isolation breach: tenant key of ${key.tenant ?? '?'} read ${tenant}'s clients`;
  const expect = refusal('tenant_mismatch', ERROR_CODES.tenantMismatch, 'tenant_isolation_breach', detail);
  return canary(target, 'cross_tenant', key.alias, keyed(key), { endpoint: 'clients', tenant }, expect);
}

/** Spec §4.2: /platform/ is for platform keys; what a tenant key gets there is not shown. */
function platformRefused(target: MonitorTarget, key: MonitorKey, sub: string): ProbeSpec {
  const expect = refusal('forbidden', undefined, 'authorization_breach', `authorization breach: tenant key read /platform/${sub}`);
  return canary(target, 'platform_refused', key.alias, keyed(key), { endpoint: 'platform', tenant: '', platformSub: sub }, expect);
}

function otherHeader(target: MonitorTarget, key: MonitorKey): ProbeSpec | undefined {
  const where = readablePath(target, key);
  const expect: Expectation = { kind: 'success', list: where?.endpoint !== 'platform' };
  return where && canary(target, 'other_header', key.alias, keyed(key, otherScheme(key.auth)), where, expect);
}

/** Spec §5.6: an invalid key gives `unauthorized` (status not shown); asked on a path that needs a key. */
function invalidKey(target: MonitorTarget): ProbeSpec {
  const expect = refusal(
    'unauthorized',
    ERROR_CODES.unauthorized,
    'authorization_breach',
    'authorization breach: an invalid key was served data',
  );
  return canary(target, 'invalid_key', INVALID_KEY_ALIAS, { kind: 'invalid' }, { endpoint: 'clients', tenant: anyTenant(target) }, expect);
}

function publicDocs(target: MonitorTarget): ProbeSpec {
  const expect: Expectation = { kind: 'success', list: false };
  return canary(target, 'public_docs', NO_KEY_ALIAS, { kind: 'none' }, { endpoint: 'docs', tenant: '' }, expect);
}

/** Only once the target says which reading its `/` follows (readings.ts INDEX_ACCESS). */
function indexAccess(target: MonitorTarget): ProbeSpec | undefined {
  if (target.indexAccess === 'unknown') return undefined;
  const expect: Expectation =
    target.indexAccess === 'public'
      ? { kind: 'success', list: false }
      : refusal(
          'unauthorized',
          undefined,
          'authorization_breach',
          'authorization breach: GET / served data without a key (indexAccess: key)',
        );
  return canary(target, 'index_access', NO_KEY_ALIAS, { kind: 'none' }, { endpoint: 'index', tenant: '' }, expect);
}

export function canaryProbes(target: MonitorTarget): ProbeSpec[] {
  const on = target.canaries;
  const shared: (ProbeSpec | undefined)[] = [
    on.invalid_key ? invalidKey(target) : undefined,
    on.public_docs ? publicDocs(target) : undefined,
    on.index_access ? indexAccess(target) : undefined,
  ];
  const foreign = foreignTenants(target);
  const perKey = target.keys.flatMap((key): (ProbeSpec | undefined)[] => [
    key.kind === 'tenant' && on.cross_tenant ? crossTenant(target, key, foreign(key)) : undefined,
    ...(key.kind === 'tenant' && on.platform_refused ? target.platformPaths.map((sub) => platformRefused(target, key, sub)) : []),
    on.other_header ? otherHeader(target, key) : undefined,
  ]);
  return [...shared, ...perKey].filter((p): p is ProbeSpec => p !== undefined);
}
