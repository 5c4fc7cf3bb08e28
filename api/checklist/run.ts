/**
 * The checklist's plan on the engine: /docs, then each resource of the tenant, one plain attempt
 * each, so every row shows exactly what the server answered; and step 5, a call as a curl line.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { RATE_LIMIT_POLICY } from '../client/index.js';
import { type ApiKey, sendAttempt } from '../client/single-attempt.js';
import { type AuthScheme, TENANT_RESOURCES, type TenantResource } from '../contract/index.js';
import { authHeader, endpointPath } from '../contract/index.js';
import { type Call, REQUEST_BUDGET, drive, pacedCall, pacedRun } from './engine.js';
import { evaluateChecklist } from './evaluate.js';

export interface ChecklistCallInput {
  readonly baseUrl: string;
  readonly apiKey: ApiKey;
  readonly authScheme: AuthScheme;
  readonly tenant: string;
  readonly dispatcher: Dispatcher;
  readonly timeoutMs?: number;
}

export const DOCS_CALL: Call = { id: 'docs', endpoint: 'docs', path: '/docs', auth: 'none' };

export function resourceCall(auth: AuthScheme, tenant: string, r: TenantResource): Call {
  return { id: `scope:${r}`, endpoint: r, path: endpointPath(r, { tenant }), auth };
}

export async function runChecklist(input: ChecklistCallInput) {
  const { baseUrl, authScheme, tenant } = input;
  const run = pacedRun(baseUrl, {
    budget: REQUEST_BUDGET,
    maxWaitMs: RATE_LIMIT_POLICY.probeMaxWaitMs,
  });
  function* plan() {
    yield* pacedCall(run, DOCS_CALL);
    for (const r of TENANT_RESOURCES) yield* pacedCall(run, resourceCall(authScheme, tenant, r));
  }
  const send = ({ endpoint, path, auth }: Call) =>
    sendAttempt({
      ...input,
      timeoutMs: input.timeoutMs ?? 10_000,
      endpoint,
      path,
      key: auth === 'none' ? undefined : input.apiKey,
    });
  await drive(plan(), send, sleep);
  return evaluateChecklist({ baseUrl, tenant, observations: run.records });
}

export interface CurlSpec {
  readonly url: string;
  readonly auth: AuthScheme | 'none';
  /** The environment variable that holds the key. */
  readonly keyVariable: string;
  readonly timeoutS?: number | undefined;
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The key is `$VARIABLE` in double quotes, so it never appears on screen; everything else is
 * single-quoted, so nothing in a URL can be expanded or split.
 */
export function curlCommand({ url, auth, keyVariable, timeoutS }: CurlSpec): string {
  const parts = ['curl', '-sS', '-i', ...(timeoutS === undefined ? [] : ['--max-time', timeoutS])];
  parts.push('-X', 'GET', '-H', shellQuote('accept: application/json'));
  const header = auth === 'none' ? undefined : authHeader(auth, `$${keyVariable}`);
  if (header) parts.push('-H', `"${header.name}: ${header.value}"`);
  return [...parts, shellQuote(url)].join(' ');
}
