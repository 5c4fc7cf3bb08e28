/**
 * Recorded answers for discovery's pure core: real envelope parsing and classification, an API
 * answering as today's sandbox does, and a run through the real call order (`discoverWith`).
 */
import { classifyResponse, endpointSpec, parseEnvelope } from '../../api/contract/index.js';
import { errorEnvelope } from '../../api/contract/server/index.js';
import type { AttemptResponse, AttemptResult } from '../../api/client/single-attempt.js';
import { type Call } from '../../diagnose/engine.js';
import { type DiscoveryReport, discoverWith } from '../../discover/index.js';

export const BASE = 'http://127.0.0.1:1234/api/v1';
export const HINT = '…wXyZ';

/** An answer to one call; the call's endpoint decides whether `data` must be a list. */
export type Reply = (call: Call) => AttemptResult;
export type Api = (call: Call) => Reply;

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

export function raw(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return (call) => {
    const envelope = parseEnvelope(body, { status, list: endpointSpec(call.endpoint).list });
    const response: AttemptResponse = {
      kind: 'response',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      status,
      headers,
      envelope,
      classification: classifyResponse(status, envelope, headers['location']),
      requestId: headers['x-request-id'],
      bodyBytes: body.length,
      bodyExcerpt: body.slice(0, 512),
      timings: { headersMs: 1, totalMs: 2 },
    };
    return response;
  };
}

export const ok = (data: unknown, headers: Record<string, string> = {}): Reply =>
  raw(200, JSON.stringify({ ok: true, data }), { ...JSON_TYPE, ...headers });
export const refuse = (status: number, code: string, headers: Record<string, string> = {}): Reply =>
  raw(status, JSON.stringify(errorEnvelope(code, `komunikat ${code}`)), { ...JSON_TYPE, ...headers });
export const plain = (status: number, text: string, contentType = 'text/plain'): Reply =>
  raw(status, text, { 'content-type': contentType });
export const noAnswer = (): Reply => () => ({
  kind: 'failure',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  failure: { kind: 'connection', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
  timings: { headersMs: undefined, totalMs: 1 },
});

export const DOCS = {
  endpoints: [{ path: '/' }, { path: '/docs' }, { path: '/platform/*' }, { path: '/tenants/{tenant}/clients' }],
  platformPaths: ['/platform/tenants', '/platform/keys'],
};
export const TENANTS = ['rowery-nowak', 'serwis-kowalski', 'cykl-gdansk'];
export const IETF = { 'ratelimit-limit': '1000', 'ratelimit-remaining': '999', 'ratelimit-reset': '60' };

export interface ApiOptions {
  /** What the key given is to this API; `rejected` is refused like a made-up key. */
  readonly key?: 'tenant' | 'platform' | 'nologs' | 'rejected';
  readonly ownTenant?: string;
  readonly tenants?: readonly string[];
  /** Headers on the answers a valid key gets (the limiter counts keys only). */
  readonly limitHeaders?: Record<string, string>;
  /** The header every answer carries a request id in; null for none. */
  readonly requestIdHeader?: string | null;
  /** Answers by call id, in place of the reference ones. */
  readonly overrides?: Readonly<Record<string, Reply>>;
}

function tenantOf(path: string): string {
  return decodeURIComponent(/^\/tenants\/([^/]+)\//.exec(path)?.[1] ?? '');
}

function keyedReply(call: Call, o: ApiOptions): Reply {
  const limits = o.limitHeaders ?? IETF;
  if (o.key === 'rejected') return refuse(401, 'unauthorized');
  if (call.endpoint === 'index') return ok({ service: 'Repair-Service' }, limits);
  const platform = o.key === 'platform';
  if (call.endpoint === 'platform') {
    if (!platform) return refuse(403, 'platform_key_required', limits);
    if (call.path === '/platform/tenants')
      return ok(
        (o.tenants ?? TENANTS).map((slug) => ({ slug, name: slug.toUpperCase() })),
        limits,
      );
    return ok([{ alias: 'nowak-test', tenant: 'rowery-nowak' }], limits);
  }
  if (!platform && tenantOf(call.path) !== (o.ownTenant ?? 'rowery-nowak')) return refuse(403, 'tenant_key_tenant_mismatch', limits);
  if (o.key === 'nologs' && call.endpoint === 'logs') return refuse(403, 'insufficient_scope', limits);
  return ok([], limits);
}

/** Today's sandbox: / needs a key, 401 `unauthorized` for a bad or missing one, ietf headers. */
export function referenceApi(o: ApiOptions = {}): Api {
  let ids = 0;
  const header = o.requestIdHeader === undefined ? 'x-request-id' : o.requestIdHeader;
  const withId =
    (reply: Reply): Reply =>
    (call) => {
      const result = reply(call);
      ids += 1;
      if (header === null || result.kind !== 'response') return result;
      return { ...result, headers: { [header]: `req-${ids}`, ...result.headers } };
    };
  return (call) => {
    const override = o.overrides?.[call.id];
    if (override) return withId(override);
    if (call.id === 'docs') return withId(ok(DOCS));
    if (call.auth === 'none' || call.madeUpKey) return withId(refuse(401, 'unauthorized'));
    return withId(keyedReply(call, o));
  };
}

export interface Discovered {
  readonly report: DiscoveryReport;
  readonly calls: readonly Call[];
}

/** A run through the real call order, answered by `api`. */
export async function discover(
  api: Api,
  settings: { key?: boolean; tenant?: string; platformPaths?: readonly string[] } = {},
): Promise<Discovered> {
  const calls: Call[] = [];
  const report = await discoverWith(
    async (call) => {
      calls.push(call);
      return api(call)(call);
    },
    {
      baseUrl: BASE,
      auth: 'bearer',
      keyHint: settings.key ? HINT : undefined,
      tenant: settings.tenant,
      platformPaths: settings.platformPaths,
    },
    // A recorded answer comes back at once; a wait the server asked for takes no time here.
    async () => undefined,
  );
  return { report, calls };
}
