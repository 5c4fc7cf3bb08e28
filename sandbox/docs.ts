/** The `/docs` and `/` payloads, generated from the contract's endpoint table. */
import { AUTH_SCHEMES, BASE_PATH, ENDPOINTS, ERROR_CODES, RATE_LIMIT_HEADERS, authHeader, platformPath } from '../api/contract/index.js';
import { SANDBOX_PLATFORM_PATHS as PLATFORM_SUBPATHS } from './defaults.js';
import { ERROR_STATUS } from '../api/contract/server/index.js';

const ACCESS_TEXT: Readonly<Record<string, string>> = {
  public: 'publiczny, bez klucza',
  any_key: 'dowolny ważny klucz (platformy lub najemcy)',
  platform: 'wyłącznie klucz platformy',
  tenant: 'klucz platformy albo klucz najemcy przypisany do najemcy ze ścieżki',
};

export function docsPayload(): Record<string, unknown> {
  return {
    version: 'v1',
    basePath: BASE_PATH,
    endpoints: ENDPOINTS.map((e) => ({
      method: e.method,
      path: e.pathTemplate,
      access: e.access,
      accessDescription: ACCESS_TEXT[e.access] ?? e.access,
      list: e.list,
      returns: e.returns,
    })),
    platformPaths: Object.values(PLATFORM_SUBPATHS).map((sub) => platformPath(sub)),
    authorization: {
      keyHeaders: AUTH_SCHEMES.map((scheme) => {
        const header = authHeader(scheme, '<API_KEY>');
        return { scheme, header: header.name, value: header.value };
      }),
      keyKinds: {
        platform: 'Klucz platformy: endpointy /platform/* i dane każdego najemcy.',
        tenant: 'Klucz najemcy: wyłącznie endpointy najemcy, do którego jest przypisany.',
      },
      scopes: 'Zakres klucza wymienia zasoby (clients, bikes, repairs, logs) oraz platform; wywołanie spoza zakresu kończy się 403 insufficient_scope.',
      environments: 'Osobne klucze dla środowiska testowego i produkcyjnego.',
      indexAccess: 'key',
      rules: [
        'Brak klucza, nieprawidłowy lub unieważniony klucz: 401 unauthorized.',
        'Klucz najemcy użyty dla innego najemcy: 403 tenant_key_tenant_mismatch.',
        'Klucz najemcy na /platform/*: 403 platform_key_required.',
        'Zasób spoza zakresu klucza: 403 insufficient_scope.',
        '/docs jest publiczny; / wymaga dowolnego ważnego klucza.',
      ],
      errors: Object.values(ERROR_CODES).map((code) => ({ code, status: ERROR_STATUS[code] })),
      rateLimitHeaders: [RATE_LIMIT_HEADERS.retryAfter, RATE_LIMIT_HEADERS.limit, RATE_LIMIT_HEADERS.remaining, RATE_LIMIT_HEADERS.reset],
    },
  };
}

export function indexPayload(): Record<string, unknown> {
  return {
    service: 'Repair-Service Integration API',
    version: 'v1',
    description: 'Piaskownica API v1 z danymi demonstracyjnymi.',
    docs: `${BASE_PATH}/docs`,
  };
}
