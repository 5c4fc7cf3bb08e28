/**
 * The checklist's calls: /docs without the key, then each tenant resource with it, one plain
 * attempt each (no retries), so every row shows exactly what the server answered.
 */
import type { Dispatcher } from 'undici';
import { type ApiKey, type AttemptResult, sendAttempt } from '../client/single-attempt.js';
import { type AuthScheme, TENANT_RESOURCES, type TenantResource, endpointPath } from '../contract/index.js';
import { type ChecklistObservations, type ChecklistRow, evaluateChecklist } from './evaluate.js';

export interface ChecklistCallInput {
  readonly baseUrl: string;
  readonly apiKey: ApiKey;
  readonly authScheme: AuthScheme;
  readonly tenant: string;
  readonly dispatcher: Dispatcher;
  readonly timeoutMs?: number;
}

export async function collectObservations(input: ChecklistCallInput): Promise<ChecklistObservations> {
  const base = { dispatcher: input.dispatcher, baseUrl: input.baseUrl, authScheme: input.authScheme, timeoutMs: input.timeoutMs ?? 10_000 };
  const docs = await sendAttempt({ ...base, endpoint: 'docs', path: endpointPath('docs') });
  const resources: Partial<Record<TenantResource, AttemptResult>> = {};
  // Once the host gave no HTTP answer at all, every further call would only wait the same way.
  const unreachable = docs.kind === 'failure' && docs.failure.kind !== 'timeout';
  if (!unreachable) {
    for (const resource of TENANT_RESOURCES) {
      resources[resource] = await sendAttempt({ ...base, endpoint: resource, path: endpointPath(resource, { tenant: input.tenant }), key: input.apiKey });
    }
  }
  return { docs, resources };
}

export async function runChecklist(input: ChecklistCallInput): Promise<ChecklistRow[]> {
  return evaluateChecklist({ baseUrl: input.baseUrl, tenant: input.tenant, observations: await collectObservations(input) });
}
