/**
 * The checklist's plan on the engine: /docs, then each resource of the tenant, one plain attempt
 * each, so every row shows exactly what the server answered; and step 5, a call as a curl line.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { RATE_LIMIT_POLICY } from '../client/index.js';
import { type ApiKey, sendAttempt } from '../client/single-attempt.js';
import {
  API_KEY_HEADER,
  AUTHORIZATION_HEADER,
  type AuthScheme,
  BEARER_PREFIX,
  TENANT_RESOURCES,
  type TenantResource,
  endpointPath,
} from '../contract/index.js';
import { type Call, type Paced, REQUEST_BUDGET, drive, pacedCall, pacedRun } from './engine.js';
import { type ChecklistRow, evaluateChecklist } from './evaluate.js';

export interface ChecklistCallInput {
  readonly baseUrl: string;
  readonly apiKey: ApiKey;
  readonly authScheme: AuthScheme;
  readonly tenant: string;
  readonly dispatcher: Dispatcher;
  readonly timeoutMs?: number;
}

/** GET /docs without a key: public by the spec (§5.7), the first call of every plan. */
export const DOCS_CALL: Call = { id: 'docs', endpoint: 'docs', path: '/docs', auth: 'none' };

export function resourceCall(auth: AuthScheme, tenant: string, resource: TenantResource): Call {
  return {
    id: `scope:${resource}`,
    endpoint: resource,
    path: endpointPath(resource, { tenant }),
    auth,
  };
}

export async function runChecklist(input: ChecklistCallInput): Promise<ChecklistRow[]> {
  const { dispatcher, baseUrl, authScheme, tenant } = input;
  const run = pacedRun(baseUrl, {
    budget: REQUEST_BUDGET,
    maxWaitMs: RATE_LIMIT_POLICY.probeMaxWaitMs,
  });
  function* plan(): Paced<void> {
    yield* pacedCall(run, DOCS_CALL);
    for (const r of TENANT_RESOURCES) yield* pacedCall(run, resourceCall(authScheme, tenant, r));
  }
  const timeoutMs = input.timeoutMs ?? 10_000;
  const send = ({ endpoint, path, auth }: Call) =>
    sendAttempt({
      dispatcher,
      baseUrl,
      authScheme,
      timeoutMs,
      endpoint,
      path,
      ...(auth !== 'none' && { key: input.apiKey }),
    });
  await drive(plan(), send, (ms) => sleep(ms));
  return evaluateChecklist({ baseUrl, tenant, observations: run.records });
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
