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

/**
 * Whether /docs' answer means no further call can reach the host (refused, DNS, TLS): then
 * every call would only fail the same way. A timeout does not count: a hanging /docs must not
 * hide what the keyed paths would say.
 */
export function hostUnreachable(docs: AttemptResult): boolean {
  return docs.kind === 'failure' && docs.failure.kind !== 'timeout';
}

export async function collectObservations(input: ChecklistCallInput): Promise<ChecklistObservations> {
  const base = { dispatcher: input.dispatcher, baseUrl: input.baseUrl, authScheme: input.authScheme, timeoutMs: input.timeoutMs ?? 10_000 };
  const docs = await sendAttempt({ ...base, endpoint: 'docs', path: endpointPath('docs') });
  const resources: Partial<Record<TenantResource, AttemptResult>> = {};
  if (!hostUnreachable(docs)) {
    for (const resource of TENANT_RESOURCES) {
      resources[resource] = await sendAttempt({
        ...base,
        endpoint: resource,
        path: endpointPath(resource, { tenant: input.tenant }),
        key: input.apiKey,
      });
    }
  }
  return { docs, resources };
}

export async function runChecklist(input: ChecklistCallInput): Promise<ChecklistRow[]> {
  return evaluateChecklist({ baseUrl: input.baseUrl, tenant: input.tenant, observations: await collectObservations(input) });
}
