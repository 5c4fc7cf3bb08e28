/**
 * The checklist's plan: /docs, then each resource of the tenant, one plain attempt each (no
 * retries), so every row shows exactly what the server answered; and step 5, a call as curl.
 */
import type { Dispatcher } from 'undici';
import { type ApiKey, type AttemptResult, sendAttempt } from '../client/single-attempt.js';
import { type AuthScheme, TENANT_RESOURCES, type TenantResource } from '../contract/index.js';
import { type EndpointId, authHeader, endpointPath } from '../contract/index.js';
import { type ChecklistRow, evaluateChecklist } from './evaluate.js';

export interface ChecklistCallInput {
  readonly baseUrl: string;
  readonly apiKey: ApiKey;
  readonly authScheme: AuthScheme;
  readonly tenant: string;
  readonly dispatcher: Dispatcher;
  readonly timeoutMs?: number;
}

/** One planned GET; `id`, its key in the answers: `docs`, `scope:<resource>`, ... */
export interface ChecklistCall {
  readonly id: string;
  readonly endpoint: EndpointId;
  readonly path: string;
  readonly auth: AuthScheme | 'none';
}

export const DOCS_CALL: ChecklistCall = {
  id: 'docs',
  endpoint: 'docs',
  path: '/docs',
  auth: 'none',
};

export function resourceCall(auth: AuthScheme, tenant: string, r: TenantResource): ChecklistCall {
  return { id: `scope:${r}`, endpoint: r, path: endpointPath(r, { tenant }), auth };
}

/** Step 5's call: the one the first failed (else undecided) row was decided on, else `clients`. */
export function reproduceCall(rows: readonly ChecklistRow[], auth: AuthScheme, tenant: string) {
  const on = (status: string) => rows.find((r) => r.status === status && r.evidence)?.evidence;
  const evidence = on('fail') ?? on('skip') ?? 'clients';
  return evidence === 'docs' ? DOCS_CALL : resourceCall(auth, tenant, evidence);
}

export async function runChecklist(input: ChecklistCallInput): Promise<ChecklistRow[]> {
  const { dispatcher, baseUrl, authScheme, tenant } = input;
  const timeoutMs = input.timeoutMs ?? 10_000;
  const calls = [DOCS_CALL, ...TENANT_RESOURCES.map((r) => resourceCall(authScheme, tenant, r))];
  const answers = new Map<string, { result: AttemptResult }>();
  for (const { id, endpoint, path, auth } of calls) {
    const docs = answers.get('docs')?.result;
    // No further call can reach the host; not on a timeout, which must not hide what keyed
    // paths say.
    if (docs?.kind === 'failure' && docs.failure.kind !== 'timeout') break;
    const key = auth === 'none' ? undefined : input.apiKey;
    const base = { dispatcher, baseUrl, authScheme, timeoutMs };
    answers.set(id, { result: await sendAttempt({ ...base, endpoint, path, key }) });
  }
  return evaluateChecklist({ baseUrl, tenant, observations: answers });
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
