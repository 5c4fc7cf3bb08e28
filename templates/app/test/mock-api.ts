/**
 * API v1 for tests: msw handlers built from the contract, served by a real HTTP server on port 0
 * (the client sends with undici on its own connections, which msw's interceptors do not see).
 * The defaults answer like the API: every endpoint in the envelope, 401 for an unknown key, 403
 * for another tenant or a missing scope. Override one answer in a test; `resetHandlers()` drops
 * the overrides after each:
 *
 *   api.use(http.get(url('/tenants/:tenant/logs'), () => refusal(403, ERROR_CODES.insufficientScope)));
 *
 * A request no handler answers gets a 501 naming it, and fails the test in `resetHandlers()`,
 * as does a handler that throws.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpResponse, type RequestHandler, getResponse, http } from 'msw';
import { DEFAULTS } from '../src/config.js';
import { API_KEY_HEADER, AUTHORIZATION_HEADER, BASE_PATH, BEARER_PREFIX, ENDPOINTS, ERROR_CODES, type EndpointSpec, RATE_LIMIT_HEADERS as RL, REQUEST_ID_HEADER } from '../src/repair-service/contract/index.js';

export { http, HttpResponse };

/** The keys the mock knows; any other key is answered 401. */
export const KEYS = {
  /** A tenant key of DEFAULTS.tenant with every scope. */
  tenant: 'rs_test_mock_tenant_0001',
  /** The same tenant, without the `logs` scope. */
  noLogs: 'rs_test_mock_nologs_0002',
  /** A platform key: every tenant and /platform/*. */
  platform: 'rs_test_mock_platform_03',
} as const;
/** A tenant the tenant keys do not belong to: never DEFAULTS.tenant, always a valid slug. */
export const OTHER_TENANT = DEFAULTS.tenant === 'another-shop' ? 'another-shop-2' : 'another-shop';
const SCOPES: Readonly<Record<string, { tenant?: string; lacks?: string }>> = { [KEYS.tenant]: { tenant: DEFAULTS.tenant }, [KEYS.noLogs]: { tenant: DEFAULTS.tenant, lacks: 'logs' }, [KEYS.platform]: {} };
/** The rate-limit fields of every keyed answer (IETF draft, as the reference API sends them). */
const QUOTA = { [RL.limit]: '60', [RL.remaining]: '59', [RL.reset]: '60' };

/** A path below `{base_url}` as an msw pattern on any host: `url('/tenants/:tenant/logs')`. */
export const url = (path: string): string => `*${BASE_PATH}${path}`;

export const ok = (data: unknown, headers: Record<string, string> = {}) => HttpResponse.json({ ok: true, data }, { headers });

export function refusal(status: number, code: string, headers: Record<string, string> = {}) {
  return HttpResponse.json({ ok: false, error: { code, message: `Odmowa: ${code}` } }, { status, headers });
}

/** 429 with the hints a client waits by: `Retry-After` and the rate-limit fields. */
export const rateLimited = (seconds: number) => refusal(429, ERROR_CODES.rateLimited, { [RL.retryAfter]: String(seconds), ...QUOTA, [RL.remaining]: '0', [RL.reset]: String(seconds) });

function presentedKey(headers: Headers): string | undefined {
  const auth = headers.get(AUTHORIZATION_HEADER);
  return auth?.startsWith(BEARER_PREFIX) ? auth.slice(BEARER_PREFIX.length) : (headers.get(API_KEY_HEADER) ?? undefined);
}

function answer(endpoint: EndpointSpec, request: Request, tenant: string | undefined) {
  const data = endpoint.list ? [{ id: 1 }] : { endpoints: ENDPOINTS.map((e) => `${e.method} ${e.pathTemplate}`) };
  if (endpoint.access === 'public') return ok(data);
  const key = SCOPES[presentedKey(request.headers) ?? ''];
  if (key === undefined) return refusal(401, ERROR_CODES.unauthorized);
  if (endpoint.access === 'platform' && key.tenant !== undefined) return refusal(403, ERROR_CODES.platformKeyRequired, QUOTA);
  if (key.tenant !== undefined && tenant !== undefined && key.tenant !== tenant) return refusal(403, ERROR_CODES.tenantMismatch, QUOTA);
  if (key.lacks === endpoint.id) return refusal(403, ERROR_CODES.insufficientScope, QUOTA);
  return ok(data, QUOTA);
}

/** One handler per endpoint of the contract. */
export const handlers: readonly RequestHandler[] = ENDPOINTS.map((endpoint) =>
  http.get(url(endpoint.pathTemplate.replace('{tenant}', ':tenant')), ({ request, params }) => answer(endpoint, request, params['tenant'] as string | undefined)),
);

export interface MockApi {
  /** `http://127.0.0.1:<port>/api/v1`, once listening. */
  readonly baseUrl: string;
  listen(): Promise<void>;
  /** Handlers that answer before the defaults, until `resetHandlers()`. */
  use(...overrides: RequestHandler[]): void;
  /** Drops the overrides; throws if a request had no handler (or its handler threw) since the last call. */
  resetHandlers(): void;
  close(): Promise<void>;
}

export function mockApi(): MockApi {
  let overrides: RequestHandler[] = [];
  const problems: string[] = [];
  let sequence = 0;
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const request = new Request(new URL(req.url ?? '/', `http://${req.headers.host}`), { method: req.method, headers });
    const what = `${request.method} ${new URL(request.url).pathname}`;
    let response = await getResponse([...overrides, ...handlers], request);
    if (response === undefined) {
      problems.push(`${what} has no handler (answered 501)`);
      response = HttpResponse.json({ ok: false, error: { code: 'not_mocked', message: `${what}: no handler in test/mock-api.ts` } }, { status: 501 });
    }
    // HttpResponse.error(): the connection drops, as when nothing answers.
    if (response.type === 'error') return void res.destroy();
    res.writeHead(response.status, { [REQUEST_ID_HEADER]: `mock-${++sequence}`, ...Object.fromEntries(response.headers) });
    res.end(Buffer.from(await response.arrayBuffer()));
  }
  const server = createServer((req, res) =>
    void serve(req, res).catch((error: unknown) => {
      problems.push(`${req.method} ${req.url}: the handler threw ${String(error)}`);
      res.destroy();
    }),
  );
  return {
    get baseUrl() {
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`;
    },
    listen: () => new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)),
    use(...more) {
      overrides = [...more, ...overrides];
    },
    resetHandlers() {
      overrides = [];
      const found = problems.splice(0);
      if (found.length > 0) throw new Error(`the mock API: ${found.join('; ')}`);
    },
    close: () => new Promise((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}
