/**
 * Metric label sets. Only names chosen by us or the config go in a label: target, endpoint id,
 * tenant slug, key alias, check name, outcome, reason. Never a key, a URL or an error message.
 */
import type { ProbeSpec } from '../probe/spec.js';

export const PROBE_LABELS = ['target', 'endpoint', 'tenant', 'key_alias', 'check'] as const;
export type ProbeLabels = Record<(typeof PROBE_LABELS)[number], string>;

export function probeLabels(spec: ProbeSpec): ProbeLabels {
  return { target: spec.target, endpoint: spec.endpointLabel, tenant: spec.tenant, key_alias: spec.keyAlias, check: spec.check };
}
