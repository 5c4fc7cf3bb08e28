/**
 * The probes a config asks for, as plain data: reads of `/`, `/docs`, each configured
 * `/platform/` sub-path and the four tenant resources, plus the authorization canaries. Pure;
 * the same config always gives the same plan, which is what reload diffs and sharding hash.
 */
import { ERROR_CODES, type EndpointId, TENANT_RESOURCES, classifyResponse, endpointSpec } from '../../api/contract/index.js';
import type { MonitorConfig, MonitorKey, MonitorTarget } from '../config/types.js';
import { canaryProbes } from './canaries.js';
import type { Expectation, RefusalKind } from './expectation.js';
import { type ProbeSpec, makeProbe } from './spec.js';

export type { ProbeSpec } from './spec.js';

/**
 * The answer kind a refusal with this code is (a 404 for `not_found`, else a 403): the
 * contract's classifier decides, so the expected outcome is spelled as the answer will be.
 */
function refusalKind(code: string | undefined): RefusalKind {
  if (code === undefined) return 'forbidden';
  const kind = classifyResponse(code === ERROR_CODES.notFound ? 404 : 403, {
    valid: true,
    envelope: { ok: false, error: { code, message: '' } },
  }).kind;
  return kind === 'unauthorized' || kind === 'tenant_mismatch' || kind === 'insufficient_scope' || kind === 'not_found'
    ? kind
    : 'forbidden';
}

function read(target: MonitorTarget, key: MonitorKey, endpoint: EndpointId, tenant = '', platformSub?: string): ProbeSpec {
  const expected = endpoint === 'index' || endpoint === 'docs' ? undefined : key.expect?.[endpoint];
  const where = endpoint === 'platform' ? `/platform/${platformSub ?? ''}` : `${tenant}'s ${endpoint}`;
  // A read the key's `expect` says is refused: green on any refusal (a code it names that the
  // API does not send is a deviation, a ticket); data back is `unexpected_access`.
  const expect: Expectation =
    expected?.kind === 'refused'
      ? {
          kind: 'refusal',
          outcome: refusalKind(expected.code),
          specCode: expected.code,
          codeSource: 'config',
          breach: 'unexpected_access',
          breachDetail: `unexpected access: key ${key.alias} read ${where}, which its expect in monitor.yaml says it must be refused (${expected.code ?? 'refused'})`,
        }
      : { kind: 'success', list: endpointSpec(endpoint).list };
  return makeProbe({
    target: target.name,
    endpoint,
    tenant,
    platformSub,
    keyAlias: key.alias,
    check: expected?.kind === 'refused' ? 'expected_refusal' : 'read',
    credential: { kind: 'key', key, scheme: key.auth },
    expect,
  });
}

function keyReads(target: MonitorTarget, key: MonitorKey): ProbeSpec[] {
  const reads = key.tenants.flatMap((tenant) => TENANT_RESOURCES.map((resource) => read(target, key, resource, tenant)));
  if (key.kind === 'platform') for (const sub of target.platformPaths) reads.push(read(target, key, 'platform', '', sub));
  return reads;
}

function targetPlan(target: MonitorTarget): ProbeSpec[] {
  const first = target.keys[0];
  // `/` is read with a key: that works whether or not the API needs one there (readings.ts).
  const shared = first ? [read(target, first, 'index'), read(target, first, 'docs')] : [];
  return [...shared, ...target.keys.flatMap((key) => keyReads(target, key)), ...canaryProbes(target)];
}

export function buildPlan(config: MonitorConfig): ProbeSpec[] {
  return config.targets.flatMap(targetPlan);
}
