/**
 * The `/docs` and `/` payloads, generated from the contract's endpoint table and the running
 * dialect, so the catalog tells the truth about what this sandbox sends: its platform paths
 * (concrete, as tools learn them from here), index access, error codes and statuses, and
 * rate-limit header names.
 */
import {
  AUTH_SCHEMES,
  BASE_PATH,
  ENDPOINTS,
  TENANT_RESOURCES,
  type EndpointSpec,
  authHeader,
  platformPath,
} from '../api/contract/index.js';
import { type SlugStyle } from '../api/contract/readings.js';
import { type RefusalAnswer, rateLimitHeaderNames, refusalAnswer, sentErrors } from '../api/contract/server/index.js';
import { type Dialect, styleDemoSlug } from './dialect/index.js';

const ACCESS_TEXT: Readonly<Record<string, string>> = {
  public: 'publiczny, bez klucza',
  any_key: 'dowolny ważny klucz (platformy lub najemcy)',
  platform: 'wyłącznie klucz platformy',
  tenant: 'klucz platformy albo klucz najemcy przypisany do najemcy ze ścieżki',
};

const SLUG_TEXT: Readonly<Record<SlugStyle, string>> = {
  kebab: 'małe litery, cyfry i pojedyncze myślniki, do 63 znaków',
  snake: 'małe litery, cyfry i pojedyncze podkreślenia',
  any: 'dowolny jeden segment ścieżki',
};

/** `401 unauthorized`. */
function answerText(answer: RefusalAnswer): string {
  return `${answer.status} ${answer.code}`;
}

function rules(dialect: Dialect): string[] {
  const missing = refusalAnswer('missing_key', dialect);
  const invalid = refusalAnswer('invalid_key', dialect);
  const keyRules =
    missing.code === invalid.code && missing.status === invalid.status
      ? [`Brak klucza, nieprawidłowy lub unieważniony klucz: ${answerText(invalid)}.`]
      : [`Brak klucza: ${answerText(missing)}.`, `Nieprawidłowy lub unieważniony klucz: ${answerText(invalid)}.`];
  return [
    ...keyRules,
    `Klucz najemcy użyty dla innego najemcy: ${answerText(refusalAnswer('tenant_mismatch', dialect))}.`,
    `Klucz najemcy na /platform/*: ${answerText(refusalAnswer('platform_refused', dialect))}.`,
    `Zasób spoza zakresu klucza: ${answerText(refusalAnswer('scope', dialect))}.`,
    dialect.index === 'public'
      ? '/docs i / są publiczne; klucz podany do / jest pomijany.'
      : '/docs jest publiczny; / wymaga dowolnego ważnego klucza.',
  ];
}

function endpointEntry(e: EndpointSpec, dialect: Dialect): Record<string, unknown> {
  const access = e.id === 'index' && dialect.index === 'public' ? 'public' : e.access;
  return {
    method: e.method,
    path: e.pathTemplate,
    access,
    accessDescription: ACCESS_TEXT[access] ?? access,
    list: e.list,
    returns: e.returns,
  };
}

export function docsPayload(dialect: Dialect): Record<string, unknown> {
  return {
    version: 'v1',
    basePath: BASE_PATH,
    endpoints: ENDPOINTS.map((e) => endpointEntry(e, dialect)),
    platformPaths: dialect.platformPaths.map((sub) => platformPath(sub)),
    tenantSlug: { rule: SLUG_TEXT[dialect.slug], example: styleDemoSlug('rowery-nowak', dialect.slug) },
    authorization: {
      keyHeaders: AUTH_SCHEMES.map((scheme) => {
        const header = authHeader(scheme, '<API_KEY>');
        return { scheme, header: header.name, value: header.value };
      }),
      keyKinds: {
        platform: 'Klucz platformy: endpointy /platform/* i dane każdego najemcy.',
        tenant: 'Klucz najemcy: wyłącznie endpointy najemcy, do którego jest przypisany.',
      },
      scopes: `Zakres klucza wymienia zasoby (${TENANT_RESOURCES.join(', ')}) oraz platform; wywołanie spoza zakresu kończy się ${answerText(refusalAnswer('scope', dialect))}.`,
      environments: 'Osobne klucze dla środowiska testowego i produkcyjnego.',
      indexAccess: dialect.index,
      rules: rules(dialect),
      errors: sentErrors(dialect),
      rateLimitHeaders: rateLimitHeaderNames(dialect.rateLimitHeaders),
    },
  };
}

export const INDEX_PAYLOAD = {
  service: 'Repair-Service Integration API',
  version: 'v1',
  description: 'Piaskownica API v1 z danymi demonstracyjnymi.',
  docs: `${BASE_PATH}/docs`,
};
