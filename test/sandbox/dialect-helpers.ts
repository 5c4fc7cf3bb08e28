/** Starting a sandbox in a dialect and reading its answers, for the dialect behaviour suites. */
import { request } from 'undici';
import { authHeader } from '../../api/contract/index.js';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../sandbox/index.js';
import { ALL_RATE_LIMIT_HEADERS } from './expected.js';

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly contentType: string | undefined;
  readonly text: string;
  /** `error.code` when the body is an error envelope. */
  readonly code: string | undefined;
  /** `data` when the body is a success envelope. */
  readonly data: unknown;
  /** The rate-limit headers present, sorted. */
  readonly rateHeaders: string[];
}

/** Runs `fn` against a fresh sandbox speaking `dialect`, closing it afterwards. */
export async function inDialect<T>(dialect: string, fn: (sandbox: RunningSandbox) => Promise<T>, options: SandboxOptions = {}): Promise<T> {
  const sandbox = await startSandbox({ ...options, dialect });
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}

/** `who`: a demo key alias, `{ key }` for a literal key, or nothing for no key. */
export async function get(sandbox: RunningSandbox, path: string, who?: string | { key: string }): Promise<Answer> {
  const key = who === undefined ? undefined : typeof who === 'string' ? sandbox.key(who).key : who.key;
  const h = key === undefined ? undefined : authHeader('bearer', key);
  const res = await request(`${sandbox.baseUrl}${path}`, { headers: h ? { [h.name]: h.value } : {} });
  const text = await res.body.text();
  const contentType = res.headers['content-type'] as string | undefined;
  let body: { ok?: boolean; data?: unknown; error?: { code?: string } } = {};
  if (contentType?.startsWith('application/json')) body = JSON.parse(text) as typeof body;
  return {
    status: res.statusCode,
    headers: res.headers,
    contentType,
    text,
    code: body.error?.code,
    data: body.data,
    rateHeaders: ALL_RATE_LIMIT_HEADERS.filter((name) => res.headers[name] !== undefined).sort(),
  };
}

/** The /docs payload of a sandbox. */
export async function docsOf(sandbox: RunningSandbox): Promise<Record<string, unknown> & { authorization: Record<string, unknown> }> {
  const docs = await get(sandbox, '/docs');
  return docs.data as Record<string, unknown> & { authorization: Record<string, unknown> };
}
