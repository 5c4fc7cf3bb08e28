/**
 * The checklist's calls, one plain attempt each (no retries), so every row shows exactly what the
 * server answered; and step 5, the same request as a curl line.
 */
import type { Dispatcher } from 'undici';
import { type ApiKey, type AttemptResult, sendAttempt } from '../client/single-attempt.js';
import {
  API_KEY_HEADER,
  AUTHORIZATION_HEADER,
  type AuthScheme,
  BEARER_PREFIX,
  TENANT_RESOURCES,
  endpointPath,
} from '../contract/index.js';
import { type ChecklistRow, evaluateChecklist } from './evaluate.js';

export interface ChecklistCallInput {
  readonly baseUrl: string;
  readonly apiKey: ApiKey;
  readonly authScheme: AuthScheme;
  readonly tenant: string;
  readonly dispatcher: Dispatcher;
  readonly timeoutMs?: number;
}

/** Whether no further call can reach the host; not on a timeout, which must not hide what keyed paths say. */
export function hostUnreachable(docs: AttemptResult): boolean {
  return docs.kind === 'failure' && docs.failure.kind !== 'timeout';
}

export async function runChecklist(input: ChecklistCallInput): Promise<ChecklistRow[]> {
  const { dispatcher, baseUrl, authScheme, tenant } = input;
  const base = { dispatcher, baseUrl, authScheme, timeoutMs: input.timeoutMs ?? 10_000 };
  const docs = await sendAttempt({ ...base, endpoint: 'docs', path: endpointPath('docs') });
  const resources: Partial<Record<(typeof TENANT_RESOURCES)[number], AttemptResult>> = {};
  for (const resource of hostUnreachable(docs) ? [] : TENANT_RESOURCES) {
    const path = endpointPath(resource, { tenant });
    resources[resource] = await sendAttempt({
      ...base,
      endpoint: resource,
      path,
      key: input.apiKey,
    });
  }
  return evaluateChecklist({ baseUrl, tenant, observations: { docs, resources } });
}

export interface CurlSpec {
  readonly url: string;
  /** `none` for public endpoints such as /docs. */
  readonly auth: AuthScheme | 'none';
  /** The environment variable that holds the key. */
  readonly keyVariable: string;
  readonly timeoutS?: number | undefined;
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The headers an attempt sends. The key is `$VARIABLE` in double quotes, so it never appears on screen;
 * everything else is single-quoted, so nothing in a URL can be expanded or split.
 */
export function curlCommand(spec: CurlSpec): string {
  const parts = ['curl', '-sS', '-i'];
  if (spec.timeoutS !== undefined) parts.push('--max-time', String(spec.timeoutS));
  parts.push('-X', 'GET', '-H', shellQuote('accept: application/json'));
  const key = `$${spec.keyVariable}`;
  const header =
    spec.auth === 'bearer'
      ? `${AUTHORIZATION_HEADER}: ${BEARER_PREFIX}${key}`
      : `${API_KEY_HEADER}: ${key}`;
  if (spec.auth !== 'none') parts.push('-H', `"${header}"`);
  return [...parts, shellQuote(spec.url)].join(' ');
}
